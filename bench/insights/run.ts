/**
 * Insight endpoints against their own SQL, on PostgreSQL:
 *
 *   npm run bench:insights -- [--members 1000] [--days 365] [--duration 10] [--warmup 3] [--connections 10]
 *                             [--sessions 1000] [--rounds 1] [--no-pin] [--cpu-prof]
 *
 * Creates a fresh database (upbeat_bench_insights_<pid>) on the server of BENCH_DATABASE_URL or
 * TEST_DATABASE_URL, seeds one workspace (members × weekdays ending today, UTC: the app reads the real
 * clock, so `days=30` covers seeded data), starts the real app as a child pinned to CPU 1 and signs in
 * as the admin through a login token. For each of GET /dashboard/api/stats, /reports?days=30 (its first
 * page of 200 answers, with the whole window's summary and participation) and /analytics?days=30, at 1 and at --connections connections: autocannon (on CPU 0) loads the endpoint,
 * then — back to back, with the app idle — a child on CPU 1 (bench/insights/raw.ts) runs the same repo
 * functions with the same arguments and Promise.all grouping for the same time at the same concurrency.
 * Per endpoint it prints req/s and latencies of both and the ratio of mean latencies (target: endpoint
 * ≤ 1.5 × raw SQL), PASS/FAIL; --rounds N repeats everything and reports medians.
 * Exit 0 with a report, whatever the verdicts and even when requests failed under load (listed);
 * 1 when the bench itself fails (seed, start, sign-in, a probe not answering 200). The database is
 * dropped at the end, also on errors and on Ctrl-C.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon, { type Result } from "autocannon";
import { deriveKey, encryptSecret } from "../../src/lib/crypto.ts";
import { positiveInt } from "../lib/args.ts";
import { type CpuProfile, summarizeProfile } from "../lib/profile.ts";
import {
  askApp,
  BENCH_SESSION_SECRET_KEY,
  benchBaseUrl,
  cpuMs,
  createBenchDatabase,
  extraSessions,
  fmtInt,
  fmtMs,
  migrateDatabaseAt,
  onCleanup,
  percentiles,
  pinning,
  runMain,
  signIn,
  spawnPinned,
  startApp,
  table,
  waitIdle,
} from "../seed/harness.ts";
import { isoDate, seedWorkspace, shiftIsoDate } from "../seed/seed.ts";
import { ENDPOINTS, PER_REQUEST } from "./queries.ts";
import type { RawInput, RawMeasured } from "./raw.ts";

const TARGET_RATIO = 1.5;
const TEAM = "T0BENCH";
const TSX_LOADER = import.meta.resolve("tsx");

const { values: args } = parseArgs({
  options: {
    members: { type: "string", default: "1000" },
    days: { type: "string", default: "365" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    sessions: { type: "string", default: "1000" },
    rounds: { type: "string", default: "1" },
    "no-pin": { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:insights -- [--members 1000] [--days 365] [--duration 10] [--warmup 3] [--connections 10] [--sessions 1000] [--rounds 1] [--no-pin] [--cpu-prof]\n",
  );
  process.exit(0);
}
const MEMBERS = positiveInt("members", args.members);
const DAYS = positiveInt("days", args.days);
const DURATION = positiveInt("duration", args.duration);
const WARMUP = positiveInt("warmup", args.warmup);
const CONNECTIONS = positiveInt("connections", args.connections);
const SESSIONS = positiveInt("sessions", args.sessions);
const ROUNDS = positiveInt("rounds", args.rounds);
const CONCURRENCIES = [...new Set([1, CONNECTIONS])];

interface HttpMeasured {
  endpoint: string;
  concurrency: number;
  rps: number;
  mean: number;
  p50: number;
  p99: number;
  ok: number;
  bad: number;
  /** App CPU per request, µs. */
  cpuPerReq: number | undefined;
}

function cannon(
  port: number,
  path: string,
  cookies: string[],
  connections: number,
  seconds: number,
  latencies?: number[],
): Promise<Result> {
  let k = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            method: "GET",
            path,
            // A different session per request: 600 requests a minute are allowed per session.
            setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: cookies[k++ % cookies.length]! } }),
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (latencies) {
      instance.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
    }
  });
}

interface RawRunner {
  measure(op: string, concurrency: number): Promise<RawMeasured>;
  stop(): void;
}

/** The raw SQL child (raw.ts), pinned like the app and kept up so raw and HTTP runs can alternate. */
function startRaw(pin: ReturnType<typeof pinning>, input: RawInput): Promise<RawRunner> {
  const script = fileURLToPath(new URL("./raw.ts", import.meta.url));
  const child = spawnPinned(pin, process.execPath, ["--import", TSX_LOADER, script, JSON.stringify(input)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let waiting: { resolve: (r: RawMeasured) => void; reject: (e: Error) => void } | undefined;
  child.on("exit", (code) => waiting?.reject(new Error(`raw SQL runner exited ${code}`)));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`raw SQL runner exited ${code} before it was ready`)));
    child.on("message", (msg: { ready?: boolean; result?: RawMeasured; error?: string }) => {
      if (msg.ready) {
        resolve({
          measure: (op, concurrency) =>
            new Promise<RawMeasured>((res, rej) => {
              waiting = { resolve: res, reject: rej };
              child.send({ op, concurrency });
            }),
          stop: () => child.disconnect(),
        });
      } else if (msg.result) waiting?.resolve(msg.result);
      else if (msg.error) waiting?.reject(new Error(`raw SQL runner: ${msg.error}`));
    });
  });
}

/**
 * Pages through `/reports?days=30` by its cursors (1,000 a page) and checks the walk against the summary:
 * every answer once, in order, none missing. Returns the problems found.
 */
async function walkReports(port: number, cookie: string): Promise<string[]> {
  type Page = {
    standups: { user_id: string; schedule_id: string; standup_date: string; submitted_at: string }[];
    next_cursor: string | null;
    summary: { responses: number };
  };
  const t = performance.now();
  const seen = new Set<string>();
  let total = -1;
  let pages = 0;
  let previous = "";
  let cursor: string | null = null;
  const problems: string[] = [];
  do {
    const path: string = `/dashboard/api/reports?days=30&limit=1000${cursor ? `&cursor=${cursor}` : ""}`;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie } });
    if (res.status !== 200) return [`${path} answered ${res.status}`];
    const page = (await res.json()) as Page;
    pages += 1;
    if (total < 0) total = page.summary.responses;
    for (const s of page.standups) {
      const key = `${s.schedule_id}|${s.user_id}|${s.standup_date}`;
      if (seen.has(key)) problems.push(`reports walk: ${key} on two pages`);
      seen.add(key);
      // Newest day first, then by submitted_at (to the second here; ties are broken by id).
      const order = `${s.standup_date}|${s.submitted_at}`;
      if (
        previous &&
        (s.standup_date > previous.slice(0, 10) || (s.standup_date === previous.slice(0, 10) && order < previous))
      )
        problems.push(`reports walk: ${key} out of order`);
      previous = order;
    }
    cursor = page.next_cursor;
  } while (cursor);
  if (seen.size !== total) problems.push(`reports walk: ${seen.size} answers over the pages, summary says ${total}`);
  process.stdout.write(
    `  walk /dashboard/api/reports?days=30&limit=1000: ${pages} pages, ${fmtInt(seen.size)} answers (summary ${fmtInt(total)}), no duplicate: ${problems.length === 0 ? "yes" : "NO"}, ${((performance.now() - t) / 1000).toFixed(1)} s\n`,
  );
  return problems;
}

async function main(): Promise<number> {
  /** The bench could not measure what it should: exit 1. */
  const problems: string[] = [];
  /** Requests or queries that failed under load: part of the report, exit 0. */
  const failures: string[] = [];
  const pin = pinning(args["no-pin"]);
  const load0 = loadavg();
  process.stdout.write(
    `insights bench: node ${process.version}, ${MEMBERS} members × ${DAYS} days, ${DURATION} s per run (+${WARMUP} s warm-up), connections ${CONCURRENCIES.join(" and ")}\n`,
  );
  process.stdout.write(
    pin.pin
      ? `pinning: load generator on CPU ${pin.clientCpu}, app and raw SQL runner on CPU ${pin.serverCpu} (PostgreSQL unpinned)\n`
      : `pinning: OFF (${pin.why})\n`,
  );
  process.stdout.write(`load average at start: ${load0.map((l) => l.toFixed(2)).join(" ")}\n`);

  const base = benchBaseUrl();
  const dbName = `upbeat_bench_insights_${process.pid}`;
  const url = await createBenchDatabase(base, dbName);
  process.stdout.write(`database ${dbName} created\n`);
  await migrateDatabaseAt(url);
  const today = isoDate(new Date());
  const fromDate = shiftIsoDate(today, -(DAYS - 1));
  process.stdout.write(`seeding ${fromDate} .. ${today}\n`);
  const seeded = await seedWorkspace(url, {
    teamId: TEAM,
    members: MEMBERS,
    fromDate,
    toDate: today,
    botTokenEnc: encryptSecret(deriveKey(BENCH_SESSION_SECRET_KEY, "token-encryption"), "xoxb-bench-token"),
    log: (l) => process.stdout.write(`${l}\n`),
  });
  process.stdout.write(
    `seeded ${fmtInt(seeded.members)} members, ${fmtInt(seeded.runs)} runs, ${fmtInt(seeded.participants)} participants, ${fmtInt(seeded.responses)} responses in ${(seeded.totalMs / 1000).toFixed(1)} s\n`,
  );

  const t0 = performance.now();
  const app = await startApp(url, pin);
  process.stdout.write(`app started in ${((performance.now() - t0) / 1000).toFixed(1)} s (pid ${app.pid})\n`);
  const cookie = await signIn(app.port, TEAM, seeded.adminUserId);
  const cookies = [cookie, ...(await extraSessions(url, TEAM, seeded.adminUserId, SESSIONS - 1))];
  process.stdout.write(`signed in as ${seeded.adminUserId} through a login token; ${cookies.length} sessions\n`);

  // Probes: each endpoint answers 200 with data for the seeded window.
  for (const e of ENDPOINTS) {
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${app.port}${e.path}`, { headers: { cookie } });
    const text = await res.text();
    const ms = performance.now() - t;
    let summary = "";
    try {
      const body = JSON.parse(text) as Record<string, unknown>;
      if (e.name === "stats") summary = text;
      else {
        if (body.to !== today) problems.push(`${e.path} covers up to ${String(body.to)}, the seed ends ${today}`);
        if (e.name.startsWith("reports")) {
          const total = (body.summary as { responses: number }).responses;
          summary = `${(body.standups as unknown[]).length} standups on the first page of ${fmtInt(total)}, next_cursor ${body.next_cursor ? "set" : "null"}`;
        } else summary = `${(body.members as unknown[]).length} members`;
      }
    } catch {
      summary = text.slice(0, 200);
    }
    process.stdout.write(
      `  probe ${e.path}: ${res.status}, ${fmtInt(text.length)} bytes, ${ms.toFixed(0)} ms, ${summary}\n`,
    );
    if (res.status !== 200) problems.push(`${e.path} answered ${res.status}`);
  }
  problems.push(...(await walkReports(app.port, cookie)));

  const raw = await startRaw(pin, {
    url,
    teamId: TEAM,
    today,
    seconds: DURATION,
    warmup: WARMUP,
    sessions: cookies.map((c) => c.slice("svc_session=".length)),
  });
  onCleanup(async () => raw.stop());

  // Each HTTP run is followed at once by the raw SQL run it is compared with, with the app idle, so both
  // see the same background load; --rounds repeats the whole sequence.
  const pairs: { round: number; h: HttpMeasured; s: RawMeasured }[] = [];
  const profiles: { name: string; file: string }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const e of ENDPOINTS) {
      for (const c of CONCURRENCIES) {
        const warm = await cannon(app.port, e.path, cookies, c, WARMUP);
        if (warm.non2xx + warm.errors > 0)
          failures.push(`${e.name} c=${c} warm-up: ${warm.non2xx} non-2xx, ${warm.errors} errors`);
        const profile =
          args["cpu-prof"] && c === CONNECTIONS && round === 1
            ? join(tmpdir(), `upbeat-insights-${process.pid}-${e.name.replace(/\W+/g, "-")}.cpuprofile`)
            : undefined;
        if (profile) await askApp(app, { type: "profile-start" });
        const latencies: number[] = [];
        const cpu0 = cpuMs(app.pid);
        const r = await cannon(app.port, e.path, cookies, c, DURATION, latencies);
        const cpu1 = cpuMs(app.pid);
        if (profile) {
          await askApp(app, { type: "profile-stop", file: profile });
          profiles.push({ name: `${e.name} c=${c}`, file: profile });
        }
        const [p50, p99] = percentiles(latencies, 0.5, 0.99);
        const h: HttpMeasured = {
          endpoint: e.name,
          concurrency: c,
          rps: r["2xx"] / r.duration,
          mean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
          p50: p50!,
          p99: p99!,
          ok: r["2xx"],
          bad: r.non2xx + r.errors + r.timeouts,
          cpuPerReq:
            cpu0 !== undefined && cpu1 !== undefined && r["2xx"] > 0 ? ((cpu1 - cpu0) * 1000) / r["2xx"] : undefined,
        };
        if (h.bad > 0) {
          failures.push(
            `round ${round} ${e.name} c=${c}: ${h.bad} non-2xx/errors/timeouts ${JSON.stringify(r.statusCodeStats)} (included in the latencies)`,
          );
        }
        // Requests still queued in the app when autocannon stops must not run into the raw measurement.
        await waitIdle(app.pid, url);
        const sq = await raw.measure(e.name, c);
        for (const [msg, n] of Object.entries(sq.errors)) {
          failures.push(`round ${round} raw SQL ${e.name} c=${c}: ${n} × ${msg}`);
        }
        pairs.push({ round, h, s: sq });
        process.stdout.write(
          `  round ${round} ${e.name} c=${c}: http ${h.rps.toFixed(1)} req/s mean ${fmtMs(h.mean)} ms | sql ${sq.rps.toFixed(1)} ops/s mean ${fmtMs(sq.mean)} ms | ratio ${(h.mean / sq.mean).toFixed(2)}${h.bad ? ` | ${h.bad} failed` : ""}\n`,
        );
      }
    }
  }
  const overhead: RawMeasured[] = [];
  for (const c of CONCURRENCIES) overhead.push(await raw.measure(PER_REQUEST, c));
  raw.stop();
  for (const [msg, n] of app.errors) failures.push(`the app logged ${n} × ${msg}`);
  await app.stop();

  // ---- report: one row per (endpoint, connections); with several rounds, medians (ratio: median of the rounds' ratios).
  const median = (xs: number[]) => {
    const v = [...xs].sort((x, y) => x - y);
    return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
  };
  const rows: string[][] = [];
  const verdicts: string[] = [];
  for (const e of ENDPOINTS) {
    for (const c of CONCURRENCIES) {
      const ps = pairs.filter((p) => p.h.endpoint === e.name && p.h.concurrency === c);
      const m = (f: (p: (typeof ps)[number]) => number | undefined) => {
        const xs = ps.map(f).filter((x): x is number => x !== undefined);
        return xs.length ? median(xs) : Number.NaN;
      };
      const ratio = m((p) => p.h.mean / p.s.mean);
      const ok = ratio <= TARGET_RATIO;
      const cpu = (x: number) => (Number.isNaN(x) ? "-" : fmtInt(x));
      rows.push([
        e.name,
        String(c),
        m((p) => p.h.rps).toFixed(1),
        fmtMs(m((p) => p.h.mean)),
        fmtMs(m((p) => p.h.p50)),
        fmtMs(m((p) => p.h.p99)),
        cpu(m((p) => p.h.cpuPerReq)),
        m((p) => p.s.rps).toFixed(1),
        fmtMs(m((p) => p.s.mean)),
        fmtMs(m((p) => p.s.p50)),
        fmtMs(m((p) => p.s.p99)),
        cpu(m((p) => p.s.cpuPerOp)),
        ratio.toFixed(2),
        ok ? "PASS" : "FAIL",
      ]);
      const rounds = ps.length > 1 ? ` (median of ${ps.map((p) => (p.h.mean / p.s.mean).toFixed(2)).join(", ")})` : "";
      verdicts.push(
        `${e.name} c=${c}: endpoint mean ${fmtMs(m((p) => p.h.mean))} ms / raw SQL mean ${fmtMs(m((p) => p.s.mean))} ms = ${ratio.toFixed(2)}${rounds} (target ≤ ${TARGET_RATIO}) ${ok ? "PASS" : "FAIL"}`,
      );
    }
  }
  process.stdout.write(
    `\n${table(
      [
        "endpoint",
        "conn",
        "http req/s",
        "mean ms",
        "p50",
        "p99",
        "app µs/req",
        "sql ops/s",
        "mean ms",
        "p50",
        "p99",
        "node µs/op",
        "ratio",
        "≤1.5",
      ],
      rows,
    )}\n`,
  );
  process.stdout.write(
    "(ratio = endpoint mean latency / raw SQL mean latency at the same concurrency, measured back to back; µs = CPU of the node process per request/operation)\n",
  );
  for (const r of overhead) {
    process.stdout.write(
      `${r.op} c=${r.concurrency}: ${r.rps.toFixed(0)} ops/s, mean ${fmtMs(r.mean)} ms, p99 ${fmtMs(r.p99)} ms (the 3 queries every dashboard API request runs before the endpoint's own)\n`,
    );
  }
  process.stdout.write(`\n${verdicts.join("\n")}\n`);
  for (const { name, file } of profiles) {
    process.stdout.write(`\nCPU profile of the app, ${name}: ${file}\n`);
    process.stdout.write(`${summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, 12)}\n`);
  }
  const load1 = loadavg();
  process.stdout.write(`\nload average at end: ${load1.map((l) => l.toFixed(2)).join(" ")}\n`);
  if (Math.max(load0[0]!, load1[0]!) > cpus().length + 0.5) {
    process.stdout.write(
      `note: the machine was busy with other work (load average above ${cpus().length} CPUs + 0.5); numbers are noisy\n`,
    );
  }
  if (failures.length > 0) {
    process.stdout.write("\nfailed under load (measured, not a bench error):\n");
    for (const f of failures) process.stdout.write(`  - ${f}\n`);
  }
  if (problems.length > 0) {
    process.stdout.write("\nproblems:\n");
    for (const p of problems) process.stdout.write(`  - ${p}\n`);
    return 1;
  }
  return 0;
}

runMain(main, "bench:insights");
