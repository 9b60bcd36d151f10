/**
 * Ack benchmark: signed Slack Events API deliveries on `POST /chat/events` of the real Upbeat app,
 * against a bare Fastify hello-world measured in the same run with the same client-side work.
 *
 *   npm run bench:ack -- [--duration 10] [--warmup 3] [--connections 50] [--no-pin] [--cpu-prof]
 *   npm run bench:ack -- --database-url postgres://postgres@127.0.0.1:5432/postgres   # the app on PostgreSQL
 *
 * Servers run one at a time, pinned to CPU 1 (`taskset -c 1`); this process (autocannon) pins itself
 * to CPU 0. Targets: ack req/s ≥ 0.6 × hello req/s and ack p99 ≤ 3 × hello p99 (reported, exit 0).
 * Exit 1 when a server fails to start, a probe fails, any request errors or gets a non-2xx answer,
 * or the ack run did not store one new event per request (it would then be measuring the dedupe path).
 * --cpu-prof profiles the app server during the measured ack and retry runs (through the inspector,
 * over IPC), writes the .cpuprofile files to the temp directory and prints where the time went;
 * numbers measured while profiling are a little lower.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { positiveInt } from "../lib/args.ts";
import { askChild, stopChild } from "../lib/child.ts";
import { pinning } from "../lib/pinning.ts";
import { cpuMs } from "../lib/proc.ts";
import { type CpuProfile, summarizeProfile } from "../lib/profile.ts";
import { BENCH_APP_ENV, eventIdSource, READY, reactionEventBody, signedHeaders } from "./shared.ts";

const TARGET_RPS_RATIO = 0.6;
const TARGET_P99_RATIO = 3;
/** Slack retries a delivery not answered within 3 s. */
const SLACK_TIMEOUT_MS = 3_000;
const CLIENT_CPU = "0";
const SERVER_CPU = "1";
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** Taken before this process pins itself (availableParallelism follows the CPU affinity). */
const CPUS = availableParallelism();
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX_LOADER = import.meta.resolve("tsx");

// ---------------------------------------------------------------------------------------------- options

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    "no-pin": { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    "database-url": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:ack -- [--duration <s>=10] [--warmup <s>=3] [--connections <n>=50] [--no-pin] [--cpu-prof]\n" +
      "                          [--database-url postgres://…]  (a PostgreSQL server: the app runs on a fresh database there)\n",
  );
  process.exit(0);
}
const DURATION = positiveInt("duration", args.duration);
const WARMUP = positiveInt("warmup", args.warmup);
const CONNECTIONS = positiveInt("connections", args.connections);

// ---------------------------------------------------------------------------------------------- servers

interface Server {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  readonly tail: string[];
  /** Log lines at pino level warn or above since start. */
  warnings: number;
  readonly exited: Promise<void>;
}

const live = new Set<ChildProcess>();
function killAllNow(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}
process.on("exit", killAllNow);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping the servers\n`);
    killAllNow();
    process.exit(130);
  });
}

function startServer(name: string, script: string, env: NodeJS.ProcessEnv, pin: boolean): Promise<Server> {
  const scriptPath = fileURLToPath(new URL(script, import.meta.url));
  const nodeArgs = ["--import", TSX_LOADER, scriptPath, "0"];
  const child = pin
    ? spawn("taskset", ["-c", SERVER_CPU, process.execPath, ...nodeArgs], {
        cwd: ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe", "ipc"],
      })
    : spawn(process.execPath, nodeArgs, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  live.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      live.delete(child);
      resolve();
    });
  });
  const tail: string[] = [];
  let warnings = 0;
  let server: Server | undefined;

  return new Promise<Server>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      reject(new Error(`${name} server failed to start: ${why}\n${tail.map((l) => `  | ${l}`).join("\n")}`));
    };
    const timer = setTimeout(() => fail(`no "ready" line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const onLine = (line: string) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      if (/"level":(40|50|60)\b/.test(line)) {
        warnings += 1;
        if (server) server.warnings = warnings;
      }
      const ready = READY.exec(line.trim());
      if (ready && !server) {
        clearTimeout(timer);
        server = { name, child, port: Number(ready[1]), tail, warnings, exited };
        resolve(server);
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    child.once("error", (err) => fail(err.message));
    child.once("exit", (code, signal) => {
      if (!server) fail(`exited (${signal ?? `code ${code}`}) before "ready"`);
      else if (!stopping.has(child)) process.stderr.write(`${name} server exited unexpectedly (${signal ?? code})\n`);
    });
  });
}

const stopping = new Set<ChildProcess>();
function stopServer(server: Server): Promise<void> {
  return stopChild(server.child, server.exited, stopping, `${server.name} server`, STOP_TIMEOUT_MS);
}

/** One request/answer over the app server's IPC channel (see app-server.ts). */
function ask(server: Server, msg: { type: string; file?: string }): Promise<Record<string, unknown>> {
  return askChild(server.child, msg, "the app server", 30_000);
}

async function storedEvents(server: Server): Promise<number> {
  return Number((await ask(server, { type: "stats" })).chatEvents);
}

/**
 * The chat_events row count once the server has worked off its backlog: autocannon stops with
 * requests still queued in the server, and those still claim their events after the run.
 */
async function settledEvents(server: Server): Promise<number> {
  let last = await storedEvents(server);
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await storedEvents(server);
    if (now === last) return now;
    last = now;
  }
  return last;
}

// ---------------------------------------------------------------------------------------------- measuring

let pinned = false;

/** Jiffies of one CPU from /proc/stat: all, idle (idle + iowait), steal (taken by the hypervisor). */
function cpuJiffies(cpu: string): { all: number; idle: number; steal: number } | undefined {
  try {
    const line = readFileSync("/proc/stat", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`cpu${cpu} `));
    if (!line) return undefined;
    const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
    return { all: f.reduce((a, b) => a + b, 0), idle: f[3]! + f[4]!, steal: f[7]! };
  } catch {
    return undefined;
  }
}

/** Response times at full float resolution (autocannon's own histogram keeps whole milliseconds). */
class Latencies {
  #buf = new Float64Array(1 << 16);
  #n = 0;
  add(ms: number): void {
    if (this.#n === this.#buf.length) {
      const bigger = new Float64Array(this.#buf.length * 2);
      bigger.set(this.#buf);
      this.#buf = bigger;
    }
    this.#buf[this.#n++] = ms;
  }
  /** Responses slower than `ms`. */
  over(ms: number): number {
    let n = 0;
    for (let i = 0; i < this.#n; i++) if (this.#buf[i]! > ms) n += 1;
    return n;
  }
  percentiles(...qs: number[]): number[] {
    const sorted = this.#buf.slice(0, this.#n).sort();
    return qs.map((q) => (this.#n === 0 ? Number.NaN : sorted[Math.min(this.#n - 1, Math.ceil(q * this.#n) - 1)]!));
  }
}

interface Measured {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers slower than Slack's 3 s delivery timeout (Slack would retry those). */
  late: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, { count: number }>;
  serverCpu: number | undefined;
  /** Server CPU time per answered request, in µs: the cost of one request, robust to a slow client. */
  cpuPerRequest: number | undefined;
  clientCpu: number;
  /** Share of the server CPU busy with anything but the server (other processes, interrupts). */
  otherCpu: number | undefined;
  /** Share of the server CPU stolen by the hypervisor. */
  stealCpu: number | undefined;
}

type MakeRequest = () => { body: string; headers: Record<string, string> };

function load(
  server: Server,
  path: string,
  make: MakeRequest,
  seconds: number,
  latencies?: Latencies,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${server.port}`,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: "POST",
            path,
            // Runs for every request: a unique event id, a fresh body and its v0 signature.
            setupRequest: (req) => {
              const { body, headers } = make();
              req.body = body;
              req.headers = headers;
              return req;
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (latencies) {
      instance.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.add(ms));
    }
  });
}

async function scenario(
  name: string,
  server: Server,
  path: string,
  make: MakeRequest,
  profileFile?: string,
): Promise<{ measured: Measured; warmup: Result }> {
  process.stdout.write(`  ${name}: warm-up ${WARMUP} s, `);
  const warmup = await load(server, path, make, WARMUP);
  process.stdout.write(`measure ${DURATION} s … `);
  if (profileFile) await ask(server, { type: "profile-start" });
  const latencies = new Latencies();
  const cpu0 = cpuJiffies(SERVER_CPU);
  const server0 = cpuMs(server.child.pid);
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await load(server, path, make, DURATION, latencies);
  const wall = performance.now() - t0;
  const client = process.cpuUsage(client0);
  const server1 = cpuMs(server.child.pid);
  const cpu1 = cpuJiffies(SERVER_CPU);
  if (profileFile) await ask(server, { type: "profile-stop", file: profileFile });
  const serverCpu = server0 !== undefined && server1 !== undefined ? ((server1 - server0) / wall) * 100 : undefined;
  let otherCpu: number | undefined;
  let stealCpu: number | undefined;
  if (pinned && cpu0 && cpu1 && cpu1.all > cpu0.all) {
    const all = cpu1.all - cpu0.all;
    stealCpu = ((cpu1.steal - cpu0.steal) / all) * 100;
    const busy = ((all - (cpu1.idle - cpu0.idle)) / all) * 100;
    otherCpu = Math.max(0, busy - stealCpu - (serverCpu ?? 0));
  }
  const [p50, p99, max] = latencies.percentiles(0.5, 0.99, 1);
  const measured: Measured = {
    scenario: name,
    rps: result.requests.average,
    p50: p50!,
    p99: p99!,
    max: max!,
    late: latencies.over(SLACK_TIMEOUT_MS),
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: result.statusCodeStats,
    serverCpu,
    cpuPerRequest:
      server0 !== undefined && server1 !== undefined && result["2xx"] + result.non2xx > 0
        ? ((server1 - server0) * 1000) / (result["2xx"] + result.non2xx)
        : undefined,
    clientCpu: ((client.user + client.system) / 1000 / wall) * 100,
    otherCpu,
    stealCpu,
  };
  process.stdout.write(`${Math.round(measured.rps)} req/s\n`);
  return { measured, warmup };
}

async function probe(
  port: number,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; ms: number; text: string }> {
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { ...headers, connection: "close" },
    body,
  });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - t0, text };
}

// ---------------------------------------------------------------------------------------------- report

const fmt = (n: number | undefined, digits = 2) => (n === undefined || Number.isNaN(n) ? "n/a" : n.toFixed(digits));

function table(rows: Measured[]): string {
  const head = [
    "scenario",
    "req/s (avg)",
    "p50 ms",
    "p99 ms",
    "max ms",
    ">3 s",
    "2xx",
    "non-2xx",
    "errors",
    "srv CPU",
    "µs CPU/req",
    "gen CPU",
    "other",
    "steal",
  ];
  const body = rows.map((r) => [
    r.scenario,
    r.rps.toFixed(0),
    fmt(r.p50),
    fmt(r.p99),
    fmt(r.max),
    String(r.late),
    String(r.ok),
    String(r.non2xx),
    String(r.errors),
    r.serverCpu === undefined ? "n/a" : `${r.serverCpu.toFixed(0)}%`,
    r.cpuPerRequest === undefined ? "n/a" : r.cpuPerRequest.toFixed(0),
    `${r.clientCpu.toFixed(0)}%`,
    r.otherCpu === undefined ? "n/a" : `${r.otherCpu.toFixed(0)}%`,
    r.stealCpu === undefined ? "n/a" : `${r.stealCpu.toFixed(0)}%`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

// ---------------------------------------------------------------------------------------------- main

/** A fresh database on the given server for the app (migrated by the app at start), dropped afterwards. */
async function createBenchDatabase(serverUrl: string): Promise<{ url: string; label: string; drop(): Promise<void> }> {
  const name = `upbeat_bench_ack_${process.pid}`;
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
  return {
    url: url.toString(),
    label: `${url.hostname}:${url.port || "5432"}${url.pathname}`,
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

async function main(): Promise<number> {
  const problems: string[] = [];
  const { pin, why } = pinning(args["no-pin"]);
  pinned = pin;
  process.stdout.write(
    `ack bench: node ${process.version}, ${CONNECTIONS} connections, warm-up ${WARMUP} s, measure ${DURATION} s per scenario\n`,
  );
  process.stdout.write(
    `machine: ${CPUS} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (other work on the server CPU shows in the other/steal columns)\n`,
  );
  process.stdout.write(
    pin
      ? `pinning: load generator on CPU ${CLIENT_CPU}, servers (one at a time) on CPU ${SERVER_CPU}\n`
      : `pinning: OFF (${why}); running unpinned, numbers are noisier\n`,
  );

  const profiles: { name: string; file: string }[] = [];
  const profileFile = (name: string): string | undefined => {
    if (!args["cpu-prof"]) return undefined;
    const file = join(tmpdir(), `upbeat-ack-${process.pid}-${name}.cpuprofile`);
    profiles.push({ name, file });
    return file;
  };
  if (args["cpu-prof"]) process.stdout.write("profiling: the app server's measured runs (numbers a little lower)\n");

  const ids = eventIdSource();
  /** The same client-side work for hello-world and for the app: a unique event, serialised and signed. */
  const freshEvent: MakeRequest = () => {
    const body = reactionEventBody(ids());
    return { body, headers: signedHeaders(body) };
  };

  // --- hello-world baseline
  process.stdout.write("hello-world (bare Fastify, POST /)\n");
  const hello = await startServer("hello-world", "./hello.ts", { ...process.env, HOST: "127.0.0.1" }, pin);
  let helloRun: Measured;
  try {
    const sample = freshEvent();
    const p = await probe(hello.port, "/", sample.body, sample.headers);
    if (p.status !== 200 || p.text !== '{"ok":true}') problems.push(`hello-world probe answered ${p.status} ${p.text}`);
    const run = await scenario("hello-world", hello, "/", freshEvent);
    helloRun = run.measured;
    if (run.warmup.non2xx + run.warmup.errors > 0) problems.push("hello-world warm-up had errors or non-2xx answers");
  } finally {
    await stopServer(hello);
  }

  // --- the real app
  const pgDatabase = args["database-url"] ? await createBenchDatabase(args["database-url"]) : undefined;
  process.stdout.write(
    `upbeat (POST /chat/events, ${pgDatabase ? `PostgreSQL ${pgDatabase.label}, not pinned` : "in-memory PGlite"})\n`,
  );
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...BENCH_APP_ENV,
    ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
  };
  const t0 = performance.now();
  const app = await startServer("upbeat", "./app-server.ts", appEnv, pin).catch(async (err: unknown) => {
    await pgDatabase?.drop();
    throw err;
  });
  process.stdout.write(`  started in ${((performance.now() - t0) / 1000).toFixed(1)} s (migrations included)\n`);
  let ackRun: Measured;
  let retryRun: Measured;
  try {
    // Probes: a first delivery, its retry, and a forged signature.
    const seedId = ids();
    const seedBody = reactionEventBody(seedId);
    const first = await probe(app.port, "/chat/events", seedBody, signedHeaders(seedBody));
    const again = await probe(app.port, "/chat/events", seedBody, signedHeaders(seedBody, { retryNum: 1 }));
    const forged = await probe(
      app.port,
      "/chat/events",
      seedBody,
      signedHeaders(seedBody, { secret: "not-the-signing-secret" }),
    );
    process.stdout.write(
      `  probes: first delivery ${first.status} in ${first.ms.toFixed(1)} ms, retry ${again.status} in ${again.ms.toFixed(1)} ms, forged signature ${forged.status}\n`,
    );
    if (first.status !== 200) problems.push(`first delivery answered ${first.status} ${first.text}`);
    if (again.status !== 200) problems.push(`retried delivery answered ${again.status} ${again.text}`);
    if (forged.status !== 401) problems.push(`forged signature answered ${forged.status}, expected 401`);

    const before = await settledEvents(app);
    const warningsBefore = app.warnings;
    const ack = await scenario("upbeat ack", app, "/chat/events", freshEvent, profileFile("ack"));
    ackRun = ack.measured;
    const after = await settledEvents(app);
    const answered = ack.warmup["2xx"] + ack.measured.ok;
    process.stdout.write(`  chat_events: +${after - before} rows for ${answered} acknowledged deliveries\n`);
    if (after - before < answered) {
      problems.push(`only ${after - before} new chat_events rows for ${answered} deliveries: the dedupe path was hit`);
    }
    if (ack.warmup.non2xx + ack.warmup.errors > 0) problems.push("ack warm-up had errors or non-2xx answers");

    const retried: MakeRequest = () => {
      const body = reactionEventBody(seedId);
      return { body, headers: signedHeaders(body, { retryNum: 1 }) };
    };
    const retry = await scenario("upbeat retry (dedupe)", app, "/chat/events", retried, profileFile("retry"));
    retryRun = retry.measured;
    const afterRetry = await settledEvents(app);
    if (afterRetry !== after) problems.push(`retries added ${afterRetry - after} chat_events rows`);
    if (retry.warmup.non2xx + retry.warmup.errors > 0) problems.push("retry warm-up had errors or non-2xx answers");
    if (app.warnings > warningsBefore) {
      process.stdout.write(`  the app logged ${app.warnings - warningsBefore} warning/error lines under load; last:\n`);
      for (const l of app.tail.slice(-5)) process.stdout.write(`  | ${l}\n`);
    }
  } finally {
    await stopServer(app);
    await pgDatabase?.drop();
  }

  // --- report
  const rows = [helloRun, ackRun, retryRun];
  process.stdout.write(`\n${table(rows)}\n`);
  process.stdout.write(
    "(latencies at full resolution from autocannon's per-response timings; CPU = share of one core; other/steal = rest of the server CPU's time used by other processes and interrupts / stolen by the hypervisor)\n\n",
  );
  for (const r of rows) {
    if (r.non2xx > 0 || r.errors > 0) {
      problems.push(`${r.scenario}: ${r.non2xx} non-2xx, ${r.errors} errors (${JSON.stringify(r.statusCodes)})`);
    }
  }

  const rpsRatio = ackRun.rps / helloRun.rps;
  const p99Ratio = ackRun.p99 / helloRun.p99;
  const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
  process.stdout.write(
    `ack req/s / hello req/s = ${rpsRatio.toFixed(3)}  (target ≥ ${TARGET_RPS_RATIO})  ${verdict(rpsRatio >= TARGET_RPS_RATIO)}\n`,
  );
  process.stdout.write(
    `ack p99   / hello p99   = ${p99Ratio.toFixed(2)}   (target ≤ ${TARGET_P99_RATIO})    ${verdict(p99Ratio <= TARGET_P99_RATIO)}\n`,
  );
  process.stdout.write(
    `retry req/s / hello req/s = ${(retryRun.rps / helloRun.rps).toFixed(3)}, retry p99 / hello p99 = ${(retryRun.p99 / helloRun.p99).toFixed(2)}  (information)\n`,
  );
  if (helloRun.cpuPerRequest && ackRun.cpuPerRequest) {
    process.stdout.write(
      `server CPU per request: ack ${ackRun.cpuPerRequest.toFixed(0)} µs vs hello-world ${helloRun.cpuPerRequest.toFixed(0)} µs, so with the server CPU saturated ack req/s can reach at most ≈ ${(helloRun.cpuPerRequest / ackRun.cpuPerRequest).toFixed(3)} × hello req/s (information)\n`,
    );
  }
  const late = rows.filter((r) => r.late > 0);
  if (late.length > 0) {
    process.stdout.write(
      `note: ${late.map((r) => `${r.scenario}: ${r.late}`).join(", ")} answers took longer than Slack's 3 s timeout (Slack would retry them)\n`,
    );
  }
  for (const { name, file } of profiles) {
    process.stdout.write(`\nCPU profile of the app server, ${name} run: ${file}\n`);
    process.stdout.write(`${summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile)}\n`);
  }
  const noisy = rows.filter((r) => (r.otherCpu ?? 0) + (r.stealCpu ?? 0) >= 10);
  if (noisy.length > 0) {
    process.stdout.write(
      `note: the server CPU was shared during ${noisy.map((r) => r.scenario).join(", ")} (see other/steal); rerun on a quiet machine for stable numbers\n`,
    );
  }
  if (helloRun.clientCpu >= 90) {
    process.stdout.write(
      `note: the load generator used ${helloRun.clientCpu.toFixed(0)}% of its CPU during hello-world, so the baseline may be client-bound (ratios then flatter the app)\n`,
    );
  }

  if (problems.length > 0) {
    process.stdout.write("\nproblems:\n");
    for (const p of problems) process.stdout.write(`  - ${p}\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
    killAllNow();
    process.exit(1);
  },
);
