/**
 * Child of bench/insights/run.ts: times the endpoints' SQL run directly through drizzle on a pool like
 * the app's (openDatabase, 10 connections), pinned to the CPU the app runs on. Setup: one JSON argument.
 * Over IPC, `{ op, concurrency }` runs that operation for `warmup` then `seconds` seconds with that many
 * concurrent loops (the way autocannon loads an endpoint) and answers `{ result }`; it stays up until
 * the IPC channel closes, so the runner can interleave raw and HTTP measurements.
 */
import { performance } from "node:perf_hooks";
import { openDatabase } from "../../src/db/client.ts";
import { cpuMs, percentiles } from "../seed/harness.ts";
import { ENDPOINTS, PER_REQUEST, perRequestQueries } from "./queries.ts";

export interface RawInput {
  url: string;
  teamId: string;
  today: string;
  seconds: number;
  warmup: number;
  /** svc_session values, rotated like the load generator rotates them. */
  sessions: string[];
}

export interface RawMeasured {
  op: string;
  concurrency: number;
  ops: number;
  rps: number;
  mean: number;
  p50: number;
  p99: number;
  /** Node CPU (this process) per operation, µs. */
  cpuPerOp: number | undefined;
  /** Failed operations by innermost error message. */
  errors: Record<string, number>;
}

/** The innermost cause of an error (drizzle wraps the driver's error as `cause`). */
function why(err: unknown): string {
  let e = err;
  while (e instanceof Error && e.cause !== undefined) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

async function loop(fn: () => Promise<unknown>, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await fn();
          latencies.push(performance.now() - t);
        } catch (err) {
          errors.set(why(err), (errors.get(why(err)) ?? 0) + 1);
        }
      }
    }),
  );
  return { latencies, errors, elapsed: performance.now() - t0 };
}

const input = JSON.parse(process.argv[2] ?? "{}") as RawInput;
const database = await openDatabase(input.url);
let k = 0;
const OPS = new Map<string, () => Promise<unknown>>([
  ...ENDPOINTS.map((e) => [e.name, () => e.raw(database.db, input.teamId, input.today)] as const),
  [PER_REQUEST, () => perRequestQueries(database.db, input.sessions[k++ % input.sessions.length]!)],
]);

async function measure(op: string, concurrency: number): Promise<RawMeasured> {
  const fn = OPS.get(op);
  if (!fn) throw new Error(`unknown op ${op}`);
  await loop(fn, concurrency, input.warmup);
  const cpu0 = cpuMs(process.pid);
  const { latencies, errors, elapsed } = await loop(fn, concurrency, input.seconds);
  const cpu1 = cpuMs(process.pid);
  const [p50, p99] = percentiles(latencies, 0.5, 0.99);
  return {
    op,
    concurrency,
    ops: latencies.length,
    rps: (latencies.length * 1000) / elapsed,
    mean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    p50: p50!,
    p99: p99!,
    cpuPerOp: cpu0 !== undefined && cpu1 !== undefined ? ((cpu1 - cpu0) * 1000) / latencies.length : undefined,
    errors: Object.fromEntries(errors),
  };
}

process.on("message", (msg: { op: string; concurrency: number }) => {
  measure(msg.op, msg.concurrency).then(
    (result) => process.send?.({ result }),
    (err: unknown) => process.send?.({ error: err instanceof Error ? err.message : String(err) }),
  );
});
process.on("disconnect", () => {
  database.close().finally(() => process.exit(0));
});
process.send?.({ ready: true });
