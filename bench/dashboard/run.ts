/**
 * The dashboard at size (issue 27, target 5), on PostgreSQL:
 *
 *   npm run bench:dashboard -- [--members 5000] [--days 365] [--requests 200] [--warmup 20] [--duration 5]
 *                              [--connections 10] [--sessions 400] [--only <text>] [--no-pin] [--no-bundle]
 *                              [--database <name>]
 *
 * Creates upbeat_bench_dashboard_<pid> on the server of BENCH_DATABASE_URL or TEST_DATABASE_URL, seeds one
 * workspace (bench/seed/seed.ts: members × weekdays ending today over 5 standups, plus bench/dashboard/extras.ts:
 * profiles, kudos, time off, holidays, Celebrations, webhooks with deliveries, rules, blockers), starts the app
 * (bench/seed/app-server.ts, workers off) pinned to CPU 1, and signs in as the admin and as a member. For every
 * GET a page makes on its first render (bench/dashboard/calls.ts, printed by page): --warmup requests, then
 * --requests sequential ones (p50/p95/p99, app CPU per request), then autocannon at --connections for --duration
 * seconds; PASS when the sequential p95 ≤ 200 ms. Then it builds web/ and reports the first page load in gzip
 * bytes (bundle.ts), PASS at ≤ 100 kB. Exit 0 with the report whatever the verdicts, 1 when the bench itself
 * fails, 2 without a database URL. The database is dropped at the end unless --database names one to keep
 * (seeded on first use, reused as it is afterwards).
 */
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { startFakeSlack } from "../../dev/fake-slack/index.ts";
import { deriveKey, encryptSecret } from "../../src/lib/crypto.ts";
import { positiveInt } from "../lib/args.ts";
import {
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
  startApp,
  table,
} from "../seed/harness.ts";
import { isoDate, memberUserId, seedWorkspace, shiftIsoDate } from "../seed/seed.ts";
import { measureFirstLoad } from "./bundle.ts";
import { distinctCalls, PAGES, type Role } from "./calls.ts";
import { seedExtras } from "./extras.ts";

const TEAM = "T0BENCH";
const BOT_TOKEN = "xoxb-bench-token";
/** Public channels the fake Slack lists (the Standups, Rules and Celebrations pages' channel pickers). */
const CHANNELS = 200;
const TARGET_P95_MS = 200;
const FIRST_LOAD_BUDGET = 102_400;

const { values: args } = parseArgs({
  options: {
    members: { type: "string", default: "5000" },
    days: { type: "string", default: "365" },
    requests: { type: "string", default: "200" },
    warmup: { type: "string", default: "20" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    sessions: { type: "string", default: "400" },
    only: { type: "string" },
    database: { type: "string" },
    "no-pin": { type: "boolean", default: false },
    "no-bundle": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:dashboard -- [--members 5000] [--days 365] [--requests 200] [--warmup 20] [--duration 5] [--connections 10] [--sessions 400] [--only <text>] [--no-pin] [--no-bundle] [--database <name>]\n",
  );
  process.exit(0);
}
if (!process.env.BENCH_DATABASE_URL && !process.env.TEST_DATABASE_URL) {
  process.stderr.write("bench:dashboard needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server)\n");
  process.exit(2);
}
const MEMBERS = positiveInt("members", args.members);
const DAYS = positiveInt("days", args.days);
const REQUESTS = positiveInt("requests", args.requests);
const WARMUP = positiveInt("warmup", args.warmup);
const DURATION = positiveInt("duration", args.duration);
const CONNECTIONS = positiveInt("connections", args.connections);
const SESSIONS = positiveInt("sessions", args.sessions);
const SCHEDULES = Math.min(5, MEMBERS);

interface Row {
  as: Role;
  path: string;
  status: number;
  bytes: number;
  p50: number;
  p95: number;
  p99: number;
  cpuPerReq: number | undefined;
  cP50: number;
  cP95: number;
  cP99: number;
  cRps: number;
  cBad: number;
}

/** The database to use: a fresh one dropped at the end, or --database kept (seeded when it has no workspace). */
async function database(base: string): Promise<{ url: string; seeded: boolean }> {
  if (!args.database)
    return { url: await createBenchDatabase(base, `upbeat_bench_dashboard_${process.pid}`), seeded: false };
  const name = args.database;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const exists = (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1;
  if (!exists) await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  let seeded = false;
  if (exists) {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    seeded =
      (await c.query("select 1 from installations where team_id = $1", [TEAM]).catch(() => ({ rowCount: 0 })))
        .rowCount === 1;
    await c.end();
  }
  return { url: url.toString(), seeded };
}

async function main(): Promise<number> {
  const problems: string[] = [];
  const pin = pinning(args["no-pin"]);
  const load0 = loadavg();
  process.stdout.write(
    `dashboard bench: node ${process.version}, ${fmtInt(MEMBERS)} members × ${DAYS} days, ${REQUESTS} sequential requests per call (+${WARMUP} warm-up), then ${DURATION} s at ${CONNECTIONS} connections\n`,
  );
  process.stdout.write(
    pin.pin ? `pinning: client on CPU ${pin.clientCpu}, app on CPU ${pin.serverCpu}\n` : `pinning: OFF (${pin.why})\n`,
  );
  process.stdout.write(`load average at start: ${load0.map((l) => l.toFixed(2)).join(" ")}\n`);

  const { url, seeded: reused } = await database(benchBaseUrl());
  const today = isoDate(new Date());
  if (!reused) {
    await migrateDatabaseAt(url);
    const fromDate = shiftIsoDate(today, -(DAYS - 1));
    process.stdout.write(`seeding ${fromDate} .. ${today} into ${new URL(url).pathname.slice(1)}\n`);
    const seeded = await seedWorkspace(url, {
      teamId: TEAM,
      members: MEMBERS,
      schedulesPerTeam: SCHEDULES,
      fromDate,
      toDate: today,
      botTokenEnc: encryptSecret(deriveKey(BENCH_SESSION_SECRET_KEY, "token-encryption"), BOT_TOKEN),
      log: (l) => process.stdout.write(`${l}\n`),
    });
    process.stdout.write(
      `seeded ${fmtInt(seeded.members)} members, ${seeded.schedules} standups, ${fmtInt(seeded.runs)} runs, ${fmtInt(seeded.responses)} responses in ${(seeded.totalMs / 1000).toFixed(1)} s\n`,
    );
    const t = performance.now();
    const extras = await seedExtras(url, { teamId: TEAM, members: MEMBERS, today, scheduleIds: seeded.scheduleIds });
    process.stdout.write(
      `extras in ${((performance.now() - t) / 1000).toFixed(1)} s: ${Object.entries(extras)
        .map(([k, v]) => `${k} ${fmtInt(v)}`)
        .join(", ")}\n`,
    );
  } else {
    await migrateDatabaseAt(url);
    process.stdout.write(`reusing the seeded database ${args.database} (migrated to the current schema)\n`);
  }

  // /channels asks Slack (conversations.list, cached by the app for 60 s): a Slack that answers, in this process.
  const fake = await startFakeSlack();
  onCleanup(() => fake.close());
  fake.addTeam({ id: TEAM, name: `Bench ${TEAM}`, botToken: BOT_TOKEN, botUserId: "B0BENCHBOT" });
  for (let i = 1; i <= CHANNELS; i++) {
    fake.addChannel(TEAM, { id: `C0BENCH${i}`, name: `team-${i}`, members: i <= SCHEDULES ? ["B0BENCHBOT"] : [] });
  }
  const app = await startApp(url, pin, { env: { CHAT_API_URL: fake.url } });
  const adminId = memberUserId(1);
  const memberId = memberUserId(2);
  const adminCookie = await signIn(app.port, TEAM, adminId);
  const sessions: Record<Role, string[]> = {
    admin: [adminCookie, ...(await extraSessions(url, TEAM, adminId, SESSIONS - 1))],
    member: await extraSessions(url, TEAM, memberId, SESSIONS),
  };
  process.stdout.write(
    `app pid ${app.pid}; ${SESSIONS} sessions each for ${adminId} (admin) and ${memberId} (member)\n`,
  );

  process.stdout.write("\nthe calls each page makes on its first render (/dashboard/api…):\n");
  for (const p of PAGES) process.stdout.write(`  ${p.name} (${p.route}, ${p.as}): ${p.paths.join("  ")}\n`);

  const calls = distinctCalls(PAGES).filter((c) => !args.only || c.path.includes(args.only));
  const counters: Record<Role, number> = { admin: 0, member: 0 };
  const cookieFor = (as: Role) => sessions[as][counters[as]++ % SESSIONS]!;
  const base = `http://127.0.0.1:${app.port}/dashboard/api`;
  const rows: Row[] = [];
  process.stdout.write("\n");
  for (const c of calls) {
    let status = 0;
    let bytes = 0;
    for (let i = 0; i < WARMUP; i++) {
      const res = await fetch(base + c.path, { headers: { cookie: cookieFor(c.as) } });
      bytes = (await res.arrayBuffer()).byteLength;
      status = res.status;
    }
    if (status !== 200) problems.push(`${c.as} ${c.path} answered ${status}`);
    const lat: number[] = [];
    const cpu0 = cpuMs(app.pid);
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      const res = await fetch(base + c.path, { headers: { cookie: cookieFor(c.as) } });
      await res.arrayBuffer();
      lat.push(performance.now() - t);
    }
    const cpu1 = cpuMs(app.pid);
    const [p50, p95, p99] = percentiles(lat, 0.5, 0.95, 0.99);
    const cLat: number[] = [];
    const r = await new Promise<Result>((resolve, reject) => {
      const inst = autocannon(
        {
          url: `${base}${c.path}`,
          connections: CONNECTIONS,
          duration: DURATION,
          timeout: 30,
          requests: [
            {
              method: "GET",
              setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: cookieFor(c.as) } }),
            },
          ],
        },
        (err, result) => (err ? reject(err) : resolve(result)),
      );
      inst.on("response", (_c: unknown, _s: number, _b: number, ms: number) => cLat.push(ms));
    });
    const [cP50, cP95, cP99] = percentiles(cLat, 0.5, 0.95, 0.99);
    const row: Row = {
      ...c,
      status,
      bytes,
      p50: p50!,
      p95: p95!,
      p99: p99!,
      cpuPerReq: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / REQUESTS : undefined,
      cP50: cP50!,
      cP95: cP95!,
      cP99: cP99!,
      cRps: r["2xx"] / r.duration,
      cBad: r.non2xx + r.errors + r.timeouts,
    };
    rows.push(row);
    process.stdout.write(
      `  ${c.as} ${c.path}: p50 ${fmtMs(row.p50)} p95 ${fmtMs(row.p95)} p99 ${fmtMs(row.p99)} ms, ${row.cpuPerReq?.toFixed(2) ?? "-"} ms CPU/req | c=${CONNECTIONS}: ${row.cRps.toFixed(0)} req/s p95 ${fmtMs(row.cP95)} ms${row.cBad ? `, ${row.cBad} failed` : ""}\n`,
    );
  }
  for (const [msg, n] of app.errors) problems.push(`the app logged ${n} × ${msg}`);
  await app.stop();

  process.stdout.write(
    `\n${table(
      [
        "call",
        "as",
        "status",
        "bytes",
        "p50",
        "p95",
        "p99",
        "app CPU ms/req",
        `c=${CONNECTIONS} req/s`,
        "p50",
        "p95",
        "p99",
        "≤200 ms p95",
      ],
      rows.map((r) => [
        r.path,
        r.as,
        String(r.status),
        fmtInt(r.bytes),
        fmtMs(r.p50),
        fmtMs(r.p95),
        fmtMs(r.p99),
        r.cpuPerReq === undefined ? "-" : r.cpuPerReq.toFixed(2),
        r.cRps.toFixed(0),
        fmtMs(r.cP50),
        fmtMs(r.cP95),
        fmtMs(r.cP99),
        r.status === 200 && r.p95 <= TARGET_P95_MS ? "PASS" : "FAIL",
      ]),
    )}\n`,
  );
  const failing = rows.filter((r) => r.status !== 200 || r.p95 > TARGET_P95_MS);
  process.stdout.write(
    `(sequential: ${REQUESTS} requests one after another, latency ms; c=${CONNECTIONS}: autocannon for ${DURATION} s, information)\n` +
      `API calls: ${rows.length - failing.length} of ${rows.length} PASS (sequential p95 ≤ ${TARGET_P95_MS} ms)${failing.length ? `; FAIL: ${failing.map((r) => `${r.as} ${r.path}`).join(", ")}` : ""}\n`,
  );

  if (!args["no-bundle"]) {
    const first = measureFirstLoad();
    process.stdout.write(`\nfirst page load (vite build in ${(first.buildMs / 1000).toFixed(1)} s; gzip -9):\n`);
    for (const f of first.files) process.stdout.write(`  ${f.file}: ${fmtInt(f.raw)} bytes, ${fmtInt(f.gzip)} gzip\n`);
    process.stdout.write(
      `first page load: ${fmtInt(first.gzip)} bytes gzip (budget ${fmtInt(FIRST_LOAD_BUDGET)}) ${first.gzip <= FIRST_LOAD_BUDGET ? "PASS" : "FAIL"}\n`,
    );
  }
  const load1 = loadavg();
  process.stdout.write(`\nload average at end: ${load1.map((l) => l.toFixed(2)).join(" ")}\n`);
  if (Math.max(load0[0]!, load1[0]!) > cpus().length + 0.5) {
    process.stdout.write("note: the machine was busy with other work; latencies are noisy\n");
  }
  if (problems.length > 0) {
    process.stdout.write("\nproblems:\n");
    for (const p of problems) process.stdout.write(`  - ${p}\n`);
    return 1;
  }
  return 0;
}

runMain(main, "bench:dashboard");
