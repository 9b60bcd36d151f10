/**
 * Soak: one app instance on PostgreSQL under a steady mixed load for a while, watching its memory and errors.
 *
 *   CI_ONLY_DB=1 bash .ci/run npm run bench:soak
 *   npm run bench:soak -- [--minutes 10] [--rate 30] [--workspaces 3] [--members 50] [--days 21]
 *                         [--warmup <s>] [--seed 1]
 *   (or SOAK_MINUTES, SOAK_RATE, SOAK_WORKSPACES, SOAK_MEMBERS in the environment; a flag wins)
 *
 * Creates upbeat_bench_soak_<pid> on the server of BENCH_DATABASE_URL / TEST_DATABASE_URL, seeds the workspaces
 * (members × days of weekday history ending today, bench/seed), starts the fake Slack in this process and the app
 * (instance.ts: workers, scheduler, real clock, LOG_LEVEL=WARNING) as a child, signs in the admins through
 * login tokens and creates MCP keys through the API. Then, for --minutes: --rate requests a second of dashboard
 * reads, Slack events (with retries), slash commands and MCP tool calls (load.ts), the answers of everyone
 * asked (answers.ts) and a standup run every minute (runs.ts). Every minute it prints the app's RSS and heap,
 * requests, errors and 5xx so far; at the end per-route counts, errors and p99, and three verdicts:
 *   RSS growth ≤ 10 % after warm-up, 0 errors, 0 5xx        (exit 1 when one fails)
 * Warm-up: the first 20 % of the run (--warmup <s> to change); latency percentiles leave it out. RSS after warm-up
 * = median of the 2 s samples in a window (min(60 s, 20 % of the run)) starting min(20 s, 10 % of the run) after
 * the warm-up; RSS at the end = median of the last window. A forced full GC (the child runs with --expose-gc)
 * comes that settling time before each window, so both start from the same state; the heap after it is
 * printed as the retained heap, the clearest sign of a leak.
 * The database is dropped and the app stopped at the end, on errors and on Ctrl-C.
 */
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { mulberry32, startFakeSlack } from "../../dev/fake-slack/index.ts";
import { positiveInt } from "../lib/args.ts";
import {
  benchBaseUrl,
  createBenchDatabase,
  fmtInt,
  migrateDatabaseAt,
  onCleanup,
  runMain,
  startApp,
} from "../seed/harness.ts";
import { isoDate, shiftIsoDate } from "../seed/seed.ts";
import { Participants } from "./answers.ts";
import { AppLog, credentials, databaseCounts, seededSchedules } from "./app.ts";
import { type LoadContext, MIX, startSteadyLoad } from "./load.ts";
import { MemoryMonitor, mb } from "./memory.ts";
import { RunDriver } from "./runs.ts";
import { AppClient, Recorder } from "./stats.ts";
import { seedTeams } from "./world.ts";

const TARGET_RSS_GROWTH_PCT = 10;
const SAMPLE_MS = 2_000;
/** Dashboard API: 600 requests a minute per session; MCP: 120 a minute per key. The soak uses at most half. */
const SESSION_BUDGET_PER_MIN = 300;
const KEY_BUDGET_PER_MIN = 60;

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: process.env.SOAK_MINUTES || "10" },
    rate: { type: "string", default: process.env.SOAK_RATE || "30" },
    workspaces: { type: "string", default: process.env.SOAK_WORKSPACES || "3" },
    members: { type: "string", default: process.env.SOAK_MEMBERS || "50" },
    days: { type: "string", default: "21" },
    warmup: { type: "string" },
    seed: { type: "string", default: "1" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    "usage: npm run bench:soak -- [--minutes 10] [--rate 30] [--workspaces 3] [--members 50] [--days 21] [--warmup <s>] [--seed 1]\n" +
      "SOAK_MINUTES, SOAK_RATE, SOAK_WORKSPACES, SOAK_MEMBERS set the defaults of their flags\n" +
      "needs PostgreSQL on 127.0.0.1: BENCH_DATABASE_URL or TEST_DATABASE_URL (or CI_ONLY_DB=1 bash .ci/run npm run bench:soak)\n",
  );
  process.exit(0);
}
const MINUTES = positiveInt("minutes", args.minutes);
const RATE = positiveInt("rate", args.rate);
const WORKSPACES = positiveInt("workspaces", args.workspaces);
const MEMBERS = positiveInt("members", args.members);
const DAYS = positiveInt("days", args.days);
const SEED = positiveInt("seed", args.seed);
const DURATION_MS = MINUTES * 60_000;
const WARMUP_MS = args.warmup === undefined ? DURATION_MS * 0.2 : positiveInt("warmup", args.warmup) * 1000;
const WINDOW_MS = Math.min(60_000, DURATION_MS * 0.2);
/**
 * V8 hands freed pages back to the system some seconds after a GC (its memory reducer), ~40 MB at once here:
 * each window starts this long after its forced GC, so both see the memory after that release.
 */
const SETTLE_MS = Math.min(20_000, DURATION_MS * 0.1);
const BASE_FROM_MS = WARMUP_MS + SETTLE_MS;
const END_FROM_MS = DURATION_MS - WINDOW_MS;
if (BASE_FROM_MS + WINDOW_MS > END_FROM_MS - SETTLE_MS) {
  process.stderr.write("--warmup leaves no room for a window after it and a separate one at the end\n");
  process.exit(2);
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const clock = (ms: number) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")}`;
const top = (map: ReadonlyMap<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, c]) => `  ${String(c).padStart(6)} × ${k}`);

async function main(): Promise<number> {
  const base = benchBaseUrl();
  const sessions = Math.max(1, Math.ceil((RATE * 60 * MIX.dashboard) / 100 / WORKSPACES / SESSION_BUDGET_PER_MIN));
  const keys = Math.max(1, Math.ceil((RATE * 60 * MIX.mcp) / 100 / WORKSPACES / KEY_BUDGET_PER_MIN));
  say(
    `bench:soak — ${MINUTES} min at ${RATE} req/s (+ answers and a run a minute), ${WORKSPACES} workspaces × ${MEMBERS} members, ` +
      `${DAYS} days of history; warm-up ${(WARMUP_MS / 1000).toFixed(0)} s, RSS windows ${clock(BASE_FROM_MS)}–${clock(BASE_FROM_MS + WINDOW_MS)} and ${clock(END_FROM_MS)}–${clock(DURATION_MS)}; ` +
      `node ${process.version}; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
  );

  // ---------------------------------------------------------------------------------------- setup
  const dbName = `upbeat_bench_soak_${process.pid}`;
  const url = await createBenchDatabase(base, dbName);
  await migrateDatabaseAt(url);
  const fake = await startFakeSlack();
  onCleanup(() => fake.close());
  const today = isoDate(new Date());
  const fromDate = shiftIsoDate(today, -(DAYS - 1));
  say(`database ${dbName}; seeding ${fromDate} .. ${today}`);
  const { teams, seeded } = await seedTeams(url, fake, {
    count: WORKSPACES,
    members: MEMBERS,
    fromDate,
    toDate: today,
    log: say,
  });
  say(
    `seeded ${fmtInt(seeded.runs)} runs, ${fmtInt(seeded.participants)} participants, ${fmtInt(seeded.responses)} responses`,
  );
  const log = new AppLog();
  // Not pinned: the soak looks at memory and errors at a modest rate, not at throughput.
  const app = await startApp(
    url,
    { pin: false, why: "not pinned", clientCpu: "0", serverCpu: "1" },
    {
      script: fileURLToPath(new URL("./instance.ts", import.meta.url)),
      nodeArgs: ["--expose-gc"],
      env: { CHAT_API_URL: fake.url },
      onLine: log.line,
    },
  );
  await credentials(app.port, teams, sessions, keys);
  const seededScheduleOf = await seededSchedules(app.port, teams);
  say(`app pid ${app.pid} on port ${app.port}; ${sessions} session(s) and ${keys} MCP key(s) per workspace`);

  const recorder = new Recorder();
  const client = new AppClient(app.port, recorder);
  onCleanup(() => client.close());
  const random = mulberry32(SEED);
  const driver = new RunDriver(teams, client, recorder);
  const people = new Participants(fake, teams, client, random, (ask) => driver.onAsk(ask));
  const ctx: LoadContext = { teams, client, random, seededScheduleOf };
  const memory = new MemoryMonitor(app);

  // ---------------------------------------------------------------------------------------- the soak
  const start = Date.now();
  const since = new Date(start - 1000);
  const elapsed = () => Date.now() - start;
  await memory.sample(0, 0);
  const stopLoad = startSteadyLoad(ctx, RATE);
  const poll = setInterval(() => people.poll(), 500);
  const runTimer = setInterval(() => void driver.next(), 60_000);
  void driver.next();
  const checkTimer = setInterval(() => driver.check(), 5_000);

  // Forced full GCs right before the two RSS windows, so both start from the same state.
  const gcAt = [
    { label: "after warm-up", t: WARMUP_MS },
    { label: "before the end window", t: END_FROM_MS - SETTLE_MS },
  ];
  let nextLine = 60_000;
  let lastRequests = 0;
  while (elapsed() < DURATION_MS) {
    await sleep(SAMPLE_MS - (elapsed() % SAMPLE_MS));
    if (app.child.exitCode !== null || app.child.signalCode !== null) throw new Error("the app exited during the soak");
    if (elapsed() >= WARMUP_MS) recorder.warm = true;
    const due = gcAt[0];
    if (due && elapsed() >= due.t) {
      gcAt.shift();
      await memory.fullGc(due.label);
    }
    const s = await memory.sample(elapsed(), recorder.requests);
    if (s.t >= nextLine || s.t >= DURATION_MS) {
      nextLine += 60_000;
      const perSec = (recorder.requests - lastRequests) / 60;
      lastRequests = recorder.requests;
      say(
        `[${clock(s.t)}] RSS ${mb(s.rss)}  heap ${mb(s.heapUsed)} / ${mb(s.heapTotal)}  requests ${fmtInt(recorder.requests)} ` +
          `(${perSec.toFixed(1)}/s)  errors ${recorder.errors}  5xx ${recorder.fiveXx}  runs ${driver.started}  ` +
          `asks ${people.counts.asks}  in flight ${client.inFlight}`,
      );
    }
  }

  // Stop sending; let what is in flight finish; runs started in the last minutes still get their time to ask
  // everyone (no new answers are sent meanwhile).
  stopLoad();
  clearInterval(runTimer);
  clearInterval(poll);
  people.stop();
  const drainUntil = Date.now() + 30_000;
  while (client.inFlight > 0 && Date.now() < drainUntil) await sleep(100);
  while (driver.check() > 0) {
    await sleep(500);
    people.poll();
  }
  clearInterval(checkTimer);
  await memory.fullGc("after the load");

  // ---------------------------------------------------------------------------------------- report
  say(
    "\nper route: count, errors and 5xx of the whole run; latencies after warm-up, from sending to the last byte " +
      "(runs: all of them, from the Run now answer or the due minute to the last ask DM)",
  );
  say(recorder.table());
  const c = people.counts;
  say(
    `\nanswers: ${c.asks} ask DMs seen; planned ${c.dm} DM answers, ${c.modal} modal answers, ${c.skipped} skips, ` +
      `${c.ignored} ignored; ${driver.otherAsks} asks of runs the soak did not start`,
  );
  for (const line of await databaseCounts(url, since)) say(line);
  if (recorder.reasons.size > 0) say(["errors by route and reason:", ...top(recorder.reasons, 20)].join("\n"));
  if (app.errors.size > 0) say(["app errors (log level ≥ error):", ...top(app.errors, 15)].join("\n"));
  if (log.warnings.size > 0) say(["app warnings:", ...top(log.warnings, 15)].join("\n"));
  if (log.other.length > 0) say(`other app output:\n${log.other.map((l) => `  | ${l}`).join("\n")}`);

  const rssBase = memory.rssMedian(BASE_FROM_MS, BASE_FROM_MS + WINDOW_MS);
  const rssEnd = memory.rssMedian(END_FROM_MS, Number.POSITIVE_INFINITY);
  const growth = rssBase && rssEnd ? ((rssEnd - rssBase) / rssBase) * 100 : undefined;
  say(
    `\nRSS: start ${mb(memory.samples[0]?.rss)}, after warm-up ${mb(rssBase)} (median ${clock(BASE_FROM_MS)}–${clock(BASE_FROM_MS + WINDOW_MS)}), ` +
      `end ${mb(rssEnd)} (median ${clock(END_FROM_MS)}–${clock(DURATION_MS)}), peak ${mb(memory.peak())}; ` +
      `growth ${growth === undefined ? "n/a" : `${growth >= 0 ? "+" : ""}${growth.toFixed(1)} %`}`,
  );
  say(`heap after a full GC: ${memory.retained.map((r) => `${r.label} ${mb(r.heapUsed)}`).join(", ")}`);
  if (MINUTES < 5) {
    say(
      "(a run of a few minutes: V8 sizes its heap by the moment's load and gives ~40 MB back once, at a time of its " +
        "choosing, so the RSS verdict is indicative; compare the heap after a full GC)",
    );
  }
  const csv = join(tmpdir(), `upbeat-soak-${process.pid}.csv`);
  memory.writeCsv(csv);
  say(`memory samples every ${SAMPLE_MS / 1000} s (bytes): ${csv}`);

  const appErrors = [...app.errors.values()].reduce((a, b) => a + b, 0);
  const verdicts: [string, boolean][] = [
    [`RSS growth after warm-up ≤ ${TARGET_RSS_GROWTH_PCT} %`, growth !== undefined && growth <= TARGET_RSS_GROWTH_PCT],
    [
      `0 errors (${recorder.errors} unexpected answers, transport errors or runs short of DMs; ${appErrors} app error log lines)`,
      recorder.errors + appErrors === 0,
    ],
    [`0 5xx (${recorder.fiveXx} of ${fmtInt(recorder.requests)} requests)`, recorder.fiveXx === 0],
  ];
  for (const [what, ok] of verdicts) say(`${ok ? "PASS" : "FAIL"}  ${what}`);
  return verdicts.every(([, ok]) => ok) ? 0 : 1;
}

runMain(main, "bench:soak");
