import { SocketModeClient } from "@slack/socket-mode";

export type DisconnectReason = "refresh_requested" | "warning" | "link_disabled" | (string & {});

/**
 * Slack's own Socket Mode client, except for `disconnect`: the client closes its socket the moment Slack asks and
 * reconnects after it has closed, so deliveries wait out the gap. Here it only reports the request
 * (`disconnect_requested`), and the transport opens the next socket before it lets this one go.
 */
export class UpbeatSocketClient extends SocketModeClient {
  protected override async onWebSocketMessage(data: string | ArrayBuffer, isBinary: boolean): Promise<void> {
    if (!isBinary) {
      const text = typeof data === "string" ? data : new TextDecoder().decode(data);
      // Only the rare control message is parsed here; envelopes go straight to the client.
      if (text.includes('"disconnect"')) {
        const message = parse(text);
        if (message?.type === "disconnect") {
          this.emit("disconnect_requested", typeof message.reason === "string" ? message.reason : "");
          return;
        }
      }
    }
    // The client reads fields of an envelope without checking them (an events_api envelope without `event` throws):
    // such a message is reported and left unacknowledged (Slack redelivers an event), never an unhandled rejection
    // that would end the process.
    try {
      await super.onWebSocketMessage(data, isBinary);
    } catch (err) {
      this.emit("unreadable_message", err instanceof Error ? err.name : "error");
    }
  }
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
