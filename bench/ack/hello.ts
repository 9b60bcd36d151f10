/**
 * The baseline for the ack benchmark: a bare Fastify server answering `POST /` with `{ ok: true }`.
 * Port from argv[2] or PORT (0 = any free port), host from HOST (127.0.0.1). Prints `ready <port>`.
 */
import type { AddressInfo } from "node:net";
import Fastify from "fastify";

// Started by run.ts with an IPC channel: if the runner goes away, even mid-start, so does this server.
let stop: () => void = () => process.exit(1);
process.on("SIGTERM", () => stop());
process.on("SIGINT", () => stop());
process.on("disconnect", () => stop());

const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
const host = process.env.HOST ?? "127.0.0.1";

const app = Fastify({ logger: false });
app.post("/", async () => ({ ok: true }));

await app.listen({ port, host });
process.stdout.write(`ready ${(app.server.address() as AddressInfo).port}\n`);

let stopping = false;
stop = () => {
  if (stopping) return;
  stopping = true;
  app.close().finally(() => process.exit(0));
};
