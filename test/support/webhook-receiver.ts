import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers the nth request (0-based): a status, optional headers and body, an optional delay. */
export type Responder = (
  n: number,
  req: Received,
) => {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering at all. */
  delayMs?: number;
};

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  received: Received[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request (webhook tests deliver to it). */
export async function startReceiver(responder: Responder = () => ({ status: 204 })): Promise<WebhookReceiver> {
  let answer = responder;
  const received: Received[] = [];
  const pending = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const got: Received = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(got);
      const a = answer(received.length - 1, got);
      const send = () => {
        pending.delete(res);
        if (res.destroyed) return;
        res.writeHead(a.status, a.headers);
        res.end(a.body);
      };
      pending.add(res);
      if (a.delayMs) setTimeout(send, a.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    respond(next) {
      answer = next;
    },
    async close() {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
