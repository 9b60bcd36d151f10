import { stripNul } from "../../lib/nul.ts";
import type { DeliveryKind } from "../intake/intake.repo.ts";
import type { Delivery } from "../intake/intake.ts";

const KINDS: Record<string, DeliveryKind> = {
  events_api: "event",
  slash_commands: "command",
  interactive: "interaction",
};

/** What Slack's client hands over for each envelope (its `slack_event`). */
export interface SocketEnvelope {
  type: string;
  body: unknown;
  retry_num?: number;
  retry_reason?: string;
}

/**
 * The intake's delivery for an envelope, or undefined for a type the intake does not take. `raw` is the payload
 * re-serialised, never the envelope: a redelivered envelope carries the same payload under a new envelope id, and
 * must land on the same key (commands and interactions are keyed by a hash of it).
 */
export function deliveryOf(envelope: SocketEnvelope): Delivery | undefined {
  const kind = KINDS[envelope.type];
  const payload = envelope.body;
  if (!kind || !payload || typeof payload !== "object" || Array.isArray(payload)) return undefined;
  // Slack sends what people type, NUL bytes too; the database cannot hold them (as on HTTP). JSON.stringify writes a
  // NUL as the escape \u0000, so text without one comes from a payload without one: then it is stored as it is.
  const raw = JSON.stringify(payload);
  const clean = !raw.includes("\\u0000");
  const body = clean ? (payload as Record<string, unknown>) : stripNul(payload as Record<string, unknown>);
  const retryNum = envelope.retry_num ?? 0;
  return {
    kind,
    body,
    raw,
    ...(clean ? { json: raw } : {}),
    ...(kind === "event" && retryNum > 0 ? { retry: { retryNum, retryReason: envelope.retry_reason ?? "" } } : {}),
  };
}

/** The ack's payload: what the intake resolved with (a command's reply, a view's response_action), if anything. */
export function ackPayload(result: unknown): Record<string, unknown> | string | undefined {
  if (result === undefined || result === null || result === "") return undefined;
  if (typeof result === "string") return result;
  return typeof result === "object" ? (result as Record<string, unknown>) : undefined;
}
