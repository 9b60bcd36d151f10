/**
 * The app for the soak benchmark, started the way src/main.ts starts it: configuration from the environment
 * (run.ts sets DATABASE_URL, CHAT_API_URL, the secrets, HOST=127.0.0.1, PORT=0, LOG_LEVEL=WARNING), the real
 * clock, queue workers and the 30 s scheduler on. Prints `ready <port>` once listening; stops through
 * app.stop() on SIGTERM/SIGINT or when the runner goes away.
 *
 * The heap is only visible from inside, so the runner asks over the IPC channel (never over HTTP):
 * `{ type: "mem" }` answers `{ mem: process.memoryUsage() }`; `{ type: "gc" }` runs a full collection first
 * (the child is started with --expose-gc, which only exposes the function).
 */
import type { AddressInfo } from "node:net";
import { buildApp } from "../../src/app.ts";
import { buildDeps, createLogger } from "../../src/deps.ts";
import { answerIpc, loadConfigOrExit } from "../lib/app-child.ts";

const config = loadConfigOrExit(process.env);
const log = createLogger(config);
for (const notice of config.notices) log.warn(notice);
const deps = await buildDeps(config, { log });
if (!deps.queue.settings.workers) throw new Error("queue workers are off: the scheduler would not run");
const app = await buildApp(deps);
await app.start();
await app.server.listen({ port: config.port, host: config.host });
process.stdout.write(`ready ${(app.server.server.address() as AddressInfo).port}\n`);

answerIpc(async (msg: { type?: string }) => {
  if (msg.type === "mem") return { mem: process.memoryUsage() };
  if (msg.type === "gc") {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error("start the app with --expose-gc");
    gc();
    return { mem: process.memoryUsage() };
  }
  throw new Error(`unknown message ${String(msg.type)}`);
});

let stopping = false;
const shutdown = (why: string) => {
  if (stopping) return;
  stopping = true;
  log.info({ why }, "soak instance stopping");
  app
    .stop()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      process.stderr.write(`stop failed: ${String(err)}\n`);
      process.exit(1);
    });
};
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
// The runner died without stopping us: do not keep polling a database nobody measures.
process.on("disconnect", () => shutdown("runner disconnected"));
