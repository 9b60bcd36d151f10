/**
 * One Upbeat app instance for the fan-out benchmark, started the way src/main.ts starts it: configuration
 * from the environment (run.ts sets DATABASE_URL, CHAT_API_URL, secrets, HOST=127.0.0.1, PORT=0), the real
 * app with its queue workers and the 30 s scheduler. Prints `ready <port> <scheduler start, epoch ms>` on
 * stdout once listening; stops through app.stop() on SIGTERM/SIGINT or when the orchestrator goes away.
 *
 * Over the IPC channel, `{ type: "profile-start" }` / `{ type: "profile-stop", file }` take a CPU profile
 * of just the measured window (run.ts --cpu-prof).
 *
 * What-if knobs (run.ts flags; unset = the production settings): BENCH_POOL_MAX (the app's pg pool, default
 * 10), BENCH_POLL_S / BENCH_RETRY_DELAY_S (QueueSettings), BENCH_ALIGNED_TICK=1 (an extra
 * scheduler pass 0.5 s after every wall-clock minute, besides the regular 30 s ticks).
 */
import type { AddressInfo } from "node:net";
import { buildApp } from "../../src/app.ts";
import { openDatabase } from "../../src/db/client.ts";
import { buildDeps, createLogger } from "../../src/deps.ts";
import { tick } from "../../src/features/standups/index.ts";
import type { QueueSettings } from "../../src/jobs/queue.ts";
import { answerIpc, CpuProfiler, loadConfigOrExit } from "../lib/app-child.ts";
import type { InstanceRequest } from "./shared.ts";

const config = loadConfigOrExit(process.env);

const log = createLogger(config);
for (const notice of config.notices) log.warn(notice);
function knob(name: string): number | undefined {
  const raw = process.env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
}
const poolMax = knob("BENCH_POOL_MAX");
const queue: Partial<QueueSettings> = {};
const pollS = knob("BENCH_POLL_S");
const retryDelayS = knob("BENCH_RETRY_DELAY_S");
if (pollS !== undefined) queue.pollingIntervalSeconds = pollS;
if (retryDelayS !== undefined) queue.retryDelaySeconds = retryDelayS;
const deps = await buildDeps(config, {
  log,
  queue,
  ...(poolMax !== undefined ? { database: await openDatabase(config.databaseUrl, { poolMax }) } : {}),
});
if (!deps.queue.settings.workers) throw new Error("queue workers are off: the scheduler would not run");
const app = await buildApp(deps);
await app.start();
// app.start() starts the scheduler last: its first pass runs now, then every 30 s from here.
const schedulerStartedAt = Date.now();
await app.server.listen({ port: config.port, host: config.host });
process.stdout.write(`ready ${(app.server.server.address() as AddressInfo).port} ${schedulerStartedAt}\n`);

let alignedTimer: NodeJS.Timeout | undefined;
if (process.env.BENCH_ALIGNED_TICK === "1") {
  const next = () => {
    alignedTimer = setTimeout(
      () => {
        tick(deps).catch((err: unknown) => log.error({ err: String(err) }, "aligned tick failed"));
        next();
      },
      60_000 - (Date.now() % 60_000) + 500,
    );
    alignedTimer.unref();
  };
  next();
}

const profiler = new CpuProfiler(500);
/** Answers `{ type }` (InstanceAnswer) once done. */
async function handle(msg: InstanceRequest): Promise<object> {
  if (msg.type === "profile-start") await profiler.start();
  else if (msg.type === "profile-stop") await profiler.stop(msg.file);
  return {};
}
answerIpc(handle);

let stopping = false;
const shutdown = (why: string) => {
  if (stopping) return;
  stopping = true;
  log.info({ why }, "bench instance stopping");
  clearTimeout(alignedTimer);
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
// The orchestrator died without stopping us: do not keep polling a database nobody measures.
process.on("disconnect", () => shutdown("orchestrator disconnected"));
