/**
 * Socket Mode benchmark: Events API envelopes over one Socket Mode connection to the real app, from the fake Slack's
 * socket server (in this process) to the app's ack, with the app in its own process (bench/ack/app-server.ts with
 * CHAT_APP_TOKEN set: it opens its socket at start, as src/main.ts would).
 *
 *   npm run bench:socket -- [--duration 10] [--warmup 3] [--window 50]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:socket   # the app on PostgreSQL
 *
 * `--window`: envelopes sent and not yet acknowledged at any time (Slack does not wait for acks before sending the
 * next one; the window bounds the backlog like the ack bench's connections). Each envelope is a unique
 * `reaction_added` (no listener): the cost measured is Socket Mode intake, the durable record and the ack.
 * Ack latency is from the fake's send to the ack's arrival. Slack gives an envelope up after 3 s and sends it again;
 * the fake does the same, so an envelope past 3 s is counted and shows as a redelivery.
 * Exit 1 when the app fails to start, its socket does not open, an envelope is never acknowledged, or fewer new
 * chat_events rows were stored than envelopes acknowledged.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { startFakeSlack } from "../../dev/fake-slack/index.ts";
import { BENCH_APP_ENV, eventIdSource, READY, reactionEventBody } from "../ack/shared.ts";
import { positiveInt } from "../lib/args.ts";
import { askChild, stopChild } from "../lib/child.ts";
import { cpuMs } from "../lib/proc.ts";

/** Slack gives up on an envelope not acknowledged within 3 s and delivers it again. */
const SLACK_TIMEOUT_MS = 3_000;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const APP_SERVER = fileURLToPath(new URL("../ack/app-server.ts", import.meta.url));
const TSX_LOADER = import.meta.resolve("tsx");

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    window: { type: "string", default: "50" },
    "database-url": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:socket -- [--duration <s>=10] [--warmup <s>=3] [--window <n>=50] [--database-url postgres://…]\n" +
      "       (or BENCH_DATABASE_URL: the app runs on a fresh database on that PostgreSQL server)\n",
  );
  process.exit(0);
}
const DURATION = positiveInt("duration", args.duration);
const WARMUP = positiveInt("warmup", args.warmup);
const WINDOW = positiveInt("window", args.window);
const SERVER_URL = args["database-url"] ?? process.env.BENCH_DATABASE_URL;

/** A fresh database on the server for the app (migrated by it at start), dropped afterwards. */
async function benchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `upbeat_bench_socket_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

interface App {
  child: ChildProcess;
  exited: Promise<void>;
  tail: string[];
}

function startApp(env: NodeJS.ProcessEnv): Promise<App> {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, APP_SERVER, "0"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.on("exit", () => child.kill("SIGKILL"));
  const tail: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail("no ready line within 60 s"), 60_000);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`the app did not start: ${why}\n${tail.map((l) => `  | ${l}`).join("\n")}`));
    }
    const onLine = (line: string) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      if (READY.test(line.trim())) {
        clearTimeout(timer);
        resolve({ child, exited, tail });
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    child.once("exit", (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
  });
}

function percentile(sorted: Float64Array, q: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

interface Run {
  acked: number;
  lost: number;
  redelivered: number;
  seconds: number;
  latencies: Float64Array;
  appCpuMs: number | undefined;
}

/**
 * Keeps WINDOW envelopes in flight for `seconds`: each ack (or Slack giving up) sends the next one. Resolves once
 * the last ones sent are acknowledged.
 */
async function drive(fake: Awaited<ReturnType<typeof startFakeSlack>>, app: App, seconds: number): Promise<Run> {
  const ids = eventIdSource();
  const latencies: number[] = [];
  let lost = 0;
  let redelivered = 0;
  const cpu0 = cpuMs(app.child.pid);
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const lane = async () => {
    while (performance.now() < end) {
      const payload = JSON.parse(reactionEventBody(ids())) as Record<string, unknown>;
      const sent = performance.now();
      const ack = await fake.socket.deliver("events_api", payload).acked;
      if (!ack) {
        lost += 1;
        continue;
      }
      if (ack.attempt > 0) redelivered += 1;
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
  const wall = (performance.now() - t0) / 1000;
  const cpu1 = cpuMs(app.child.pid);
  return {
    acked: latencies.length,
    lost,
    redelivered,
    seconds: wall,
    latencies: Float64Array.from(latencies).sort(),
    appCpuMs: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined,
  };
}

async function main(): Promise<number> {
  const problems: string[] = [];
  const database = SERVER_URL ? await benchDatabase(SERVER_URL) : undefined;
  process.stdout.write(
    `socket bench: node ${process.version}, ${database ? "PostgreSQL" : "in-memory PGlite"}, window ${WINDOW}, ` +
      `warm-up ${WARMUP} s, measure ${DURATION} s; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n`,
  );
  const fake = await startFakeSlack();
  let app: App | undefined;
  let over = Number.NaN;
  try {
    app = await startApp({
      ...process.env,
      ...BENCH_APP_ENV,
      CHAT_APP_TOKEN: "xapp-1-A0UPBEAT-bench",
      CHAT_API_URL: fake.url,
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    await fake.socket.waitForConnections(1, 15_000);
    const probe = await fake.socket.deliver("events_api", JSON.parse(reactionEventBody(eventIdSource()())));
    if (!(await probe.acked)) throw new Error("the probe envelope was never acknowledged");
    const stored = async () =>
      Number(
        (
          await askChild<{ type?: unknown; error?: unknown; chatEvents?: number }>(
            app!.child,
            { type: "stats" },
            "the app",
            30_000,
          )
        ).chatEvents,
      );

    process.stdout.write(`warm-up ${WARMUP} s … `);
    await drive(fake, app, WARMUP);
    const before = await stored();
    process.stdout.write(`measure ${DURATION} s … `);
    const run = await drive(fake, app, DURATION);
    const after = await stored();
    process.stdout.write("done\n");

    const p = (q: number) => percentile(run.latencies, q).toFixed(2);
    over = run.latencies.filter((ms) => ms > SLACK_TIMEOUT_MS).length;
    const perEvent = run.appCpuMs === undefined ? "n/a" : `${((run.appCpuMs * 1000) / run.acked).toFixed(0)} µs`;
    process.stdout.write(
      [
        `events/s over one socket: ${(run.acked / run.seconds).toFixed(0)} (${run.acked} acknowledged in ${run.seconds.toFixed(1)} s)`,
        `ack latency (fake's send → ack): p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms`,
        `over 3 s: ${over}; redelivered by the fake: ${run.redelivered}; never acknowledged: ${run.lost}`,
        `app CPU per event: ${perEvent}; chat_events: +${after - before} rows`,
        "",
      ].join("\n"),
    );
    if (fake.socket.openConnections !== 1) problems.push(`${fake.socket.openConnections} sockets open, not 1`);
    if (run.lost > 0) problems.push(`${run.lost} envelopes were never acknowledged`);
    if (after - before < run.acked) problems.push(`only ${after - before} new chat_events rows for ${run.acked} acks`);
  } finally {
    if (app) await stopChild(app.child, app.exited, new Set(), "the app", 15_000);
    await fake.close();
    await database?.drop();
  }
  process.stdout.write(`acks over 3 s = ${over}  (target 0)  ${over === 0 ? "PASS" : "FAIL"}\n`);
  for (const problem of problems) process.stdout.write(`problem: ${problem}\n`);
  return problems.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
