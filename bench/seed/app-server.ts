/**
 * The real Upbeat app for the insight and export benchmarks, started the way src/main.ts starts it
 * (loadConfig → buildDeps → buildApp → start → listen) on the DATABASE_URL the runner gives, except that
 * queue workers and the scheduler are off (queue: { workers: false }, as in the tests): the seeded
 * schedule must not open runs or post to Slack during a measurement. Prints `ready <port>` on stdout.
 *
 * Over IPC (harness.ts askApp): `profile-start` / `profile-stop {file}` write a V8 CPU profile;
 * `mem-start` / `mem-stop` sample process.memoryUsage() every 50 ms and answer the peaks; `gc` (with
 * --expose-gc) runs a full collection and answers process.memoryUsage().
 */
import type { AddressInfo } from "node:net";
import { buildApp } from "../../src/app.ts";
import { buildDeps, createLogger } from "../../src/deps.ts";
import { answerIpc, CpuProfiler, loadConfigOrExit } from "../lib/app-child.ts";

const config = loadConfigOrExit(process.env);

const log = createLogger(config);
const deps = await buildDeps(config, { log, queue: { workers: false } });
const app = await buildApp(deps);
await app.start();
await app.server.listen({ port: config.port, host: config.host });
process.stdout.write(`ready ${(app.server.server.address() as AddressInfo).port}\n`);

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  app
    .stop()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      process.stderr.write(`shutdown failed: ${String(err)}\n`);
      process.exit(1);
    });
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
process.on("disconnect", shutdown);

const profiler = new CpuProfiler(200);
type Mem = ReturnType<typeof process.memoryUsage>;
let memTimer: NodeJS.Timeout | undefined;
let memPeak: Mem | undefined;
let memStart: Mem | undefined;

function sampleMem(): void {
  const m = process.memoryUsage();
  if (!memPeak) memPeak = { ...m };
  for (const k of Object.keys(m) as (keyof Mem)[]) memPeak[k] = Math.max(memPeak[k], m[k]);
}

async function onMessage(msg: { type?: string; file?: string }): Promise<Record<string, unknown>> {
  switch (msg.type) {
    case "profile-start": {
      await profiler.start();
      return {};
    }
    case "profile-stop": {
      await profiler.stop(msg.file);
      return { file: msg.file };
    }
    case "mem-start": {
      memStart = process.memoryUsage();
      memPeak = undefined;
      sampleMem();
      memTimer = setInterval(sampleMem, 50);
      return { start: memStart };
    }
    case "mem-stop": {
      clearInterval(memTimer);
      sampleMem();
      return { start: memStart, peak: memPeak, end: process.memoryUsage() };
    }
    case "gc": {
      // With --expose-gc: a full collection, so what is left is what the process really holds.
      const gc = (globalThis as { gc?: () => void }).gc;
      if (!gc) throw new Error("start the app with --expose-gc");
      gc();
      return { mem: process.memoryUsage() };
    }
    default:
      throw new Error(`unknown message ${String(msg.type)}`);
  }
}

answerIpc(onMessage);
