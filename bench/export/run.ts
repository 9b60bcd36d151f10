/**
 * CSV export of ~1M responses against PostgreSQL's own COPY:
 *
 *   npm run bench:export -- [--rows 1000000] [--days 365] [--runs 1] [--no-pin] [--cpu-prof]
 *                           [--seeded-url <a database seeded by bench:seed, used as is: quick reruns>]
 *
 * Creates a fresh database (upbeat_bench_export_<pid>) on the server of BENCH_DATABASE_URL or
 * TEST_DATABASE_URL and seeds ONE workspace (export is per team) with enough members that a year of
 * weekday answers gives --rows responses (~4,500 members × 261 weekdays × 85%). The real app runs as a
 * child pinned to CPU 1; this process (CPU 0) downloads GET /dashboard/api/export/csv?from=…&to=…
 * covering every row with fetch, streaming: it only counts bytes and line feeds, never holds the body.
 * The child's VmRSS (/proc/<pid>/status) is sampled every 100 ms before and during the download:
 * peak growth = highest sample during − the last sample before. On PostgreSQL the route streams one
 * COPY (SELECT …) TO STDOUT (src/features/insights/export.copy.ts), so this measures that path. Then two
 * `psql -c "\copy (…) to stdout with csv header"` baselines (also on CPU 1) are timed into the same
 * counter: the spec's eight columns (the baseline) and every column the export sends, raw (same
 * joins and order, no formula guard, names, labels or CRLF).
 * Targets: RSS growth ≤ 64 MB and export rows/s ≥ 0.5 × COPY rows/s, against each baseline (PASS/FAIL;
 * exit 0 with a report, 1 on errors, e.g. a row count that does not match the table). The database is
 * dropped at the end.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { deriveKey, encryptSecret } from "../../src/lib/crypto.ts";
import { positiveInt } from "../lib/args.ts";
import { type CpuProfile, summarizeProfile } from "../lib/profile.ts";
import {
  type AppChild,
  askApp,
  BENCH_SESSION_SECRET_KEY,
  benchBaseUrl,
  cpuMs,
  createBenchDatabase,
  fmtInt,
  migrateDatabaseAt,
  type Pinning,
  pinning,
  procStatusKb,
  runMain,
  signIn,
  spawnPinned,
  startApp,
  table,
} from "../seed/harness.ts";
import { isoDate, membersForResponses, memberUserId, seedWorkspace, shiftIsoDate } from "../seed/seed.ts";

const TARGET_RSS_MB = 64;
const TARGET_RATIO = 0.5;
const SAMPLE_MS = 100;
const TEAM = "T0BENCH";
const PSQL = process.env.PSQL ?? "psql";

const { values: args } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    days: { type: "string", default: "365" },
    runs: { type: "string", default: "1" },
    "no-pin": { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    "seeded-url": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:export -- [--rows 1000000] [--days 365] [--runs 1] [--no-pin] [--cpu-prof] [--seeded-url <db seeded by bench:seed>]\n",
  );
  process.exit(0);
}
const ROWS = positiveInt("rows", args.rows);
const DAYS = positiveInt("days", args.days);
const RUNS = positiveInt("runs", args.runs);

/** Bytes and line feeds of a stream, without keeping it. */
class Counter {
  bytes = 0;
  lines = 0;
  firstByteMs: number | undefined;
  constructor(private readonly t0: number) {}
  add(chunk: Uint8Array): void {
    if (this.firstByteMs === undefined) this.firstByteMs = performance.now() - this.t0;
    this.bytes += chunk.byteLength;
    let i = chunk.indexOf(10);
    while (i !== -1) {
      this.lines += 1;
      i = chunk.indexOf(10, i + 1);
    }
  }
}

interface Transfer {
  what: string;
  rows: number;
  bytes: number;
  ms: number;
  firstByteMs: number;
  rowsPerSec: number;
  /** CPU of the producing process (app or psql) and of this process (the consumer), ms. */
  producerCpuMs: number | undefined;
  consumerCpuMs: number | undefined;
}

interface RssReport {
  baselineKb: number;
  peakKb: number;
  endKb: number;
  hwmBeforeKb: number | undefined;
  hwmAfterKb: number | undefined;
  samples: number;
  mem: Record<string, Record<string, number>>;
  /** After the download and a forced full GC: what the app still holds. */
  afterGc: { rssKb: number; heapUsed: number } | undefined;
}

/**
 * The baseline: the spec's eight columns with the export's joins and order, as PostgreSQL formats them
 * (no formula guard, LF line ends).
 */
function copySql(from: string, to: string): string {
  return [
    "select r.standup_date::text as standup_date, r.user_id, coalesce(m.real_name, '') as real_name,",
    "r.yesterday, r.today, r.blockers, coalesce(r.mood, '') as mood,",
    `to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as submitted_at`,
    "from responses r left join members m on m.team_id = r.team_id and m.user_id = r.user_id",
    `where r.team_id = '${TEAM}' and r.standup_date between '${from}' and '${to}'`,
    "order by r.standup_date, r.id",
  ].join(" ");
}

/**
 * Every column the export sends (the eight, schedule_id, the standup's name, each question and answer) as stored:
 * the same joins and order, without what the export adds (formula guard, "#channel standup", "Question N", CRLF).
 * The raw cost of the same bytes, near enough.
 */
function fullCopySql(from: string, to: string, pairs: number): string {
  const qa = Array.from({ length: pairs }, (_, i) => `, run.questions ->> ${i}, r.answers ->> ${i}`).join("");
  return [
    "select r.standup_date::text as standup_date, r.user_id, coalesce(m.real_name, '') as real_name,",
    "r.yesterday, r.today, r.blockers, coalesce(r.mood, '') as mood,",
    `to_char(r.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as submitted_at,`,
    `r.schedule_id, s.name${qa}`,
    "from responses r left join members m on m.team_id = r.team_id and m.user_id = r.user_id",
    "left join standup_runs run on run.id = r.run_id and run.team_id = r.team_id",
    "left join schedules s on s.id = r.schedule_id and s.team_id = r.team_id",
    `where r.team_id = '${TEAM}' and r.standup_date between '${from}' and '${to}'`,
    "order by r.standup_date, r.id",
  ].join(" ");
}

/** The most question/answer pairs of any response in the window (the export's column count). */
async function answerPairs(url: string, from: string, to: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select coalesce(max(greatest(jsonb_array_length(r.answers), coalesce(jsonb_array_length(run.questions), 0))), 0)::int as n
       from responses r left join standup_runs run on run.id = r.run_id and run.team_id = r.team_id
       where r.team_id = $1 and r.standup_date between $2 and $3`,
      [TEAM, from, to],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

async function httpExport(
  app: AppChild,
  cookie: string,
  from: string,
  to: string,
): Promise<{ t: Transfer; rss: RssReport }> {
  // Baseline: one second of idle samples; the last one is the reference.
  const before: number[] = [];
  for (let i = 0; i < 10; i++) {
    before.push(procStatusKb(app.pid, "VmRSS") ?? 0);
    await new Promise((r) => setTimeout(r, SAMPLE_MS));
  }
  const baselineKb = procStatusKb(app.pid, "VmRSS") ?? 0;
  const hwmBeforeKb = procStatusKb(app.pid, "VmHWM");
  let peakKb = baselineKb;
  let samples = 0;
  const timer = setInterval(() => {
    const kb = procStatusKb(app.pid, "VmRSS");
    if (kb !== undefined) {
      samples += 1;
      peakKb = Math.max(peakKb, kb);
    }
  }, SAMPLE_MS);
  await askApp(app, { type: "mem-start" });
  const appCpu0 = cpuMs(app.pid);
  const selfCpu0 = cpuMs(process.pid);
  const t0 = performance.now();
  const counter = new Counter(t0);
  try {
    const res = await fetch(`http://127.0.0.1:${app.port}/dashboard/api/export/csv?from=${from}&to=${to}`, {
      headers: { cookie },
    });
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    for await (const chunk of res.body) counter.add(chunk);
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - t0;
  const appCpu1 = cpuMs(app.pid);
  const selfCpu1 = cpuMs(process.pid);
  const endKb = procStatusKb(app.pid, "VmRSS") ?? 0;
  peakKb = Math.max(peakKb, endKb);
  const mem = await askApp(app, { type: "mem-stop" });
  let afterGc: RssReport["afterGc"];
  try {
    const g = (await askApp(app, { type: "gc" })) as { mem: { heapUsed: number } };
    afterGc = { rssKb: procStatusKb(app.pid, "VmRSS") ?? 0, heapUsed: g.mem.heapUsed };
  } catch {
    afterGc = undefined;
  }
  const rows = counter.lines - 1;
  return {
    t: {
      what: "GET /dashboard/api/export/csv",
      rows,
      bytes: counter.bytes,
      ms,
      firstByteMs: counter.firstByteMs ?? ms,
      rowsPerSec: (rows * 1000) / ms,
      producerCpuMs: appCpu0 !== undefined && appCpu1 !== undefined ? appCpu1 - appCpu0 : undefined,
      consumerCpuMs: selfCpu0 !== undefined && selfCpu1 !== undefined ? selfCpu1 - selfCpu0 : undefined,
    },
    rss: {
      baselineKb,
      peakKb,
      endKb,
      hwmBeforeKb,
      hwmAfterKb: procStatusKb(app.pid, "VmHWM"),
      samples,
      mem: mem as unknown as Record<string, Record<string, number>>,
      afterGc,
    },
  };
}

function psqlCopy(pin: Pinning, url: string, sql: string, what: string): Promise<Transfer> {
  const selfCpu0 = cpuMs(process.pid);
  const t0 = performance.now();
  const counter = new Counter(t0);
  const child = spawnPinned(
    pin,
    PSQL,
    ["-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", `\\copy (${sql}) to stdout with csv header`],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let err = "";
  let lastCpu: number | undefined;
  // psql's CPU, read just before it exits (the last reading while it is alive).
  const cpuTimer = setInterval(() => {
    lastCpu = cpuMs(child.pid!) ?? lastCpu;
  }, 50);
  child.stdout!.on("data", (d: Buffer) => counter.add(d));
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", (e) => {
      clearInterval(cpuTimer);
      reject(e);
    });
    child.once("close", (code) => {
      clearInterval(cpuTimer);
      const ms = performance.now() - t0;
      const selfCpu1 = cpuMs(process.pid);
      if (code !== 0) return reject(new Error(`psql exited ${code}: ${err.trim()}`));
      const rows = counter.lines - 1;
      resolve({
        what,
        rows,
        bytes: counter.bytes,
        ms,
        firstByteMs: counter.firstByteMs ?? ms,
        rowsPerSec: (rows * 1000) / ms,
        producerCpuMs: lastCpu,
        consumerCpuMs: selfCpu0 !== undefined && selfCpu1 !== undefined ? selfCpu1 - selfCpu0 : undefined,
      });
    });
  });
}

const mb = (kb: number) => kb / 1024;

async function main(): Promise<number> {
  const problems: string[] = [];
  const pin = pinning(args["no-pin"]);
  const load0 = loadavg();
  process.stdout.write(`export bench: node ${process.version}, ~${fmtInt(ROWS)} rows, ${RUNS} run(s)\n`);
  process.stdout.write(
    pin.pin
      ? `pinning: downloader on CPU ${pin.clientCpu}, app and psql on CPU ${pin.serverCpu} (PostgreSQL unpinned)\n`
      : `pinning: OFF (${pin.why})\n`,
  );
  process.stdout.write(`load average at start: ${load0.map((l) => l.toFixed(2)).join(" ")}\n`);

  let url: string;
  let from: string;
  let to: string;
  let expected: number;
  const admin = memberUserId(1);
  if (args["seeded-url"]) {
    // An existing database seeded by bench:seed (team T0BENCH): no create, seed or drop. For quick reruns.
    url = args["seeded-url"];
    const client = new pg.Client({ connectionString: url });
    // A server-side termination (e.g. the cleanup's drop … with (force)) must not crash the process.
    client.on("error", () => {});
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string; from: string | null; to: string | null }>(
        "select count(*) as n, min(standup_date)::text as from, max(standup_date)::text as to from responses where team_id = $1",
        [TEAM],
      );
      if (!rows[0]?.from || !rows[0].to) throw new Error(`no responses for ${TEAM} in --seeded-url`);
      expected = Number(rows[0].n);
      from = rows[0].from;
      to = rows[0].to;
    } finally {
      await client.end();
    }
    process.stdout.write(`using the seeded database as is: ${fmtInt(expected)} responses, ${from} .. ${to}\n`);
  } else {
    const base = benchBaseUrl();
    const dbName = `upbeat_bench_export_${process.pid}`;
    url = await createBenchDatabase(base, dbName);
    process.stdout.write(`database ${dbName} created\n`);
    await migrateDatabaseAt(url);
    to = isoDate(new Date());
    from = shiftIsoDate(to, -(DAYS - 1));
    const members = membersForResponses(ROWS, from, to);
    process.stdout.write(`seeding ${members} members, ${from} .. ${to}\n`);
    const seeded = await seedWorkspace(url, {
      teamId: TEAM,
      members,
      fromDate: from,
      toDate: to,
      botTokenEnc: encryptSecret(deriveKey(BENCH_SESSION_SECRET_KEY, "token-encryption"), "xoxb-bench-token"),
      log: (l) => process.stdout.write(`${l}\n`),
    });
    process.stdout.write(
      `seeded ${fmtInt(seeded.responses)} responses (${fmtInt(seeded.participants)} participants) in ${(seeded.totalMs / 1000).toFixed(1)} s\n`,
    );
    expected = seeded.responses;
  }

  const t0 = performance.now();
  // --expose-gc only lets the runner ask for a full collection after each download (see "after full GC").
  const app = await startApp(url, pin, { nodeArgs: ["--expose-gc"] });
  process.stdout.write(`app started in ${((performance.now() - t0) / 1000).toFixed(1)} s (pid ${app.pid})\n`);
  const cookie = await signIn(app.port, TEAM, admin);
  process.stdout.write(`signed in as ${admin} through a login token\n`);

  const sql = copySql(from, to);
  const pairs = await answerPairs(url, from, to);
  const fullSql = fullCopySql(from, to, pairs);
  const SPEC = "psql \\copy, the 8 spec columns";
  const FULL = `psql \\copy, all ${10 + 2 * pairs} columns raw`;
  // Warm the caches for both sides with one untimed COPY.
  const warm = await psqlCopy(pin, url, sql, SPEC);
  process.stdout.write(`warm-up COPY: ${fmtInt(warm.rows)} rows in ${(warm.ms / 1000).toFixed(1)} s\n`);

  const exports: { t: Transfer; rss: RssReport }[] = [];
  const copies: Transfer[] = [];
  const fullCopies: Transfer[] = [];
  const profiles: string[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const profile = args["cpu-prof"] ? join(tmpdir(), `upbeat-export-${process.pid}-${run}.cpuprofile`) : undefined;
    if (profile) await askApp(app, { type: "profile-start" });
    const e = await httpExport(app, cookie, from, to);
    if (profile) {
      await askApp(app, { type: "profile-stop", file: profile });
      profiles.push(profile);
    }
    exports.push(e);
    process.stdout.write(
      `  run ${run} export: ${fmtInt(e.t.rows)} rows, ${(e.t.ms / 1000).toFixed(1)} s, ${fmtInt(e.t.rowsPerSec)} rows/s, RSS +${mb(e.rss.peakKb - e.rss.baselineKb).toFixed(1)} MB\n`,
    );
    const c = await psqlCopy(pin, url, sql, SPEC);
    copies.push(c);
    process.stdout.write(
      `  run ${run} COPY:   ${fmtInt(c.rows)} rows, ${(c.ms / 1000).toFixed(1)} s, ${fmtInt(c.rowsPerSec)} rows/s (8 columns)\n`,
    );
    const full = await psqlCopy(pin, url, fullSql, FULL);
    fullCopies.push(full);
    process.stdout.write(
      `  run ${run} COPY:   ${fmtInt(full.rows)} rows, ${(full.ms / 1000).toFixed(1)} s, ${fmtInt(full.rowsPerSec)} rows/s (${10 + 2 * pairs} columns)\n`,
    );
    if (full.rows !== expected)
      problems.push(`run ${run}: the full COPY gave ${full.rows} rows, the table ${expected}`);
    if (e.t.rows !== expected) problems.push(`run ${run}: the export had ${e.t.rows} rows, the table ${expected}`);
    if (c.rows !== expected) problems.push(`run ${run}: COPY gave ${c.rows} rows, the table ${expected}`);
  }
  await app.stop();

  // Row count from the database itself, to check the seed's count.
  {
    const client = new pg.Client({ connectionString: url });
    // A server-side termination (e.g. the cleanup's drop … with (force)) must not crash the process.
    client.on("error", () => {});
    await client.connect();
    const { rows } = await client.query<{ n: string }>("select count(*) as n from responses where team_id = $1", [
      TEAM,
    ]);
    await client.end();
    if (Number(rows[0]!.n) !== expected)
      problems.push(`responses has ${rows[0]!.n} rows, the seed reported ${expected}`);
  }

  // ---- report: the best run of each (the fastest), and the worst RSS growth over all runs.
  const best = <T>(xs: T[], key: (x: T) => number) => xs.reduce((a, b) => (key(b) > key(a) ? b : a));
  const e = best(exports, (x) => x.t.rowsPerSec);
  const c = best(copies, (x) => x.rowsPerSec);
  const cFull = best(fullCopies, (x) => x.rowsPerSec);
  const worstRss = best(exports, (x) => x.rss.peakKb - x.rss.baselineKb).rss;
  const cpuCell = (ms: number | undefined) => (ms === undefined ? "-" : (ms / 1000).toFixed(1));
  process.stdout.write(
    `\n${table(
      ["transfer", "rows", "MB", "seconds", "first byte ms", "rows/s", "MB/s", "producer CPU s", "consumer CPU s"],
      [e.t, c, cFull].map((t) => [
        t.what,
        fmtInt(t.rows),
        (t.bytes / 1048576).toFixed(1),
        (t.ms / 1000).toFixed(2),
        fmtInt(t.firstByteMs),
        fmtInt(t.rowsPerSec),
        ((t.bytes / 1048576) * (1000 / t.ms)).toFixed(1),
        cpuCell(t.producerCpuMs),
        cpuCell(t.consumerCpuMs),
      ]),
    )}\n`,
  );
  process.stdout.write(
    "(producer = the app or psql, each on the server CPU; consumer = this process, counting bytes)\n",
  );
  const growthMb = mb(worstRss.peakKb - worstRss.baselineKb);
  const hwm =
    worstRss.hwmBeforeKb !== undefined && worstRss.hwmAfterKb !== undefined
      ? `, VmHWM ${mb(worstRss.hwmBeforeKb).toFixed(1)} → ${mb(worstRss.hwmAfterKb).toFixed(1)} MB`
      : "";
  process.stdout.write(
    `app RSS: baseline ${mb(worstRss.baselineKb).toFixed(1)} MB, peak ${mb(worstRss.peakKb).toFixed(1)} MB, after ${mb(worstRss.endKb).toFixed(1)} MB (${worstRss.samples} samples every ${SAMPLE_MS} ms${hwm})\n`,
  );
  const m = worstRss.mem;
  if (m.start && m.peak) {
    const f = (k: string) =>
      `${k} ${(m.start![k]! / 1048576).toFixed(1)} → peak ${(m.peak![k]! / 1048576).toFixed(1)} MB`;
    process.stdout.write(
      `app process.memoryUsage(): ${["heapUsed", "heapTotal", "external", "arrayBuffers"].map(f).join(", ")}\n`,
    );
  }
  if (worstRss.afterGc) {
    process.stdout.write(
      `after a forced full GC: heapUsed ${(worstRss.afterGc.heapUsed / 1048576).toFixed(1)} MB, RSS ${mb(worstRss.afterGc.rssKb).toFixed(1)} MB (what the app really retains; the rest of the peak was garbage not yet collected)\n`,
    );
  }
  const ratio = e.t.rowsPerSec / c.rowsPerSec;
  const rssOk = growthMb <= TARGET_RSS_MB;
  const ratioOk = ratio >= TARGET_RATIO;
  process.stdout.write(
    `\npeak RSS growth during the export = ${growthMb.toFixed(1)} MB (target ≤ ${TARGET_RSS_MB} MB)  ${rssOk ? "PASS" : "FAIL"}\n`,
  );
  process.stdout.write(
    `export rows/s / COPY rows/s = ${fmtInt(e.t.rowsPerSec)} / ${fmtInt(c.rowsPerSec)} = ${ratio.toFixed(3)} (target ≥ ${TARGET_RATIO}, the 8-column COPY)  ${ratioOk ? "PASS" : "FAIL"}\n`,
  );
  const fullRatio = e.t.rowsPerSec / cFull.rowsPerSec;
  process.stdout.write(
    `export rows/s / full raw COPY rows/s = ${fmtInt(e.t.rowsPerSec)} / ${fmtInt(cFull.rowsPerSec)} = ${fullRatio.toFixed(3)} (target ≥ ${TARGET_RATIO} against the same columns; aim 0.8)  ${fullRatio >= TARGET_RATIO ? "PASS" : "FAIL"}\n`,
  );
  for (const file of profiles) {
    process.stdout.write(`\nCPU profile of the app during the export: ${file}\n`);
    process.stdout.write(`${summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, 12)}\n`);
  }
  const load1 = loadavg();
  process.stdout.write(`\nload average at end: ${load1.map((l) => l.toFixed(2)).join(" ")}\n`);
  if (Math.max(load0[0]!, load1[0]!) > cpus().length + 0.5) {
    process.stdout.write(
      `note: the machine was busy with other work (load average above ${cpus().length} CPUs + 0.5); numbers are noisy\n`,
    );
  }
  if (problems.length > 0) {
    process.stdout.write("\nproblems:\n");
    for (const p of problems) process.stdout.write(`  - ${p}\n`);
    return 1;
  }
  return 0;
}

runMain(main, "bench:export");
