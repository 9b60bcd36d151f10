import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the demo's receiver got: one entry per delivery, newest last (kept small). */
export interface ReceivedWebhook {
  type: string;
  id: string;
  at: Date;
}

export interface DemoReceiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

const KEEP = 200;

/**
 * The demo's webhook receiver on 127.0.0.1: answers 204 to every POST and remembers the event types, so the
 * webhook log shows real deliveries without any address outside the machine. `port` 0 picks a free one.
 */
export async function startDemoReceiver(port = 0): Promise<DemoReceiver> {
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type?: string };
        received.push({ type: String(body.type), id: String(req.headers["webhook-id"] ?? ""), at: new Date() });
        if (received.length > KEEP) received.shift();
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/upbeat-webhooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
