/**
 * Fan-out benchmark: N workspaces × M members (default 200 × 50 = 10,000 participants) whose standups are
 * all due in the same minute, against the fake Slack Web API, with one and with two real app instances
 * sharing one PostgreSQL. Measures, at the fake, when every ask DM has been posted and whether any was
 * posted twice.
 *
 *   CI_ONLY_DB=1 bash .ci/run npm run bench:fanout
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:fanout -- [options]
 *
 * Options: --scenario all|one|two|429 (comma list; or 1,2,3)  --teams 200  --per-team 50  --timeout 180
 *          --settle 300  --no-pin  --cpu-prof
 * What-if overrides for the instances (default: production settings; results are marked with *):
 *          --pool-max <n>  --polling-interval <s>  --retry-delay <s>  --aligned-tick
 *
 * Per scenario: a fresh database `upbeat_bench_<pid>_<n>` (created on the server of the given URL, migrated
 * and seeded from here), the fake Slack in this process, then 1 or 2 app instances (instance.ts) as child
 * processes. Every schedule is due at the next whole UTC minute at least LEAD_S seconds away; the instances
 * start before it and claim the runs on their 30 s scheduler tick. Scenario 429 makes the fake answer
 * HTTP 429 (Retry-After: 1) to a seeded 10% of chat.postMessage calls.
 *
 * Targets: every DM within 60 s of the due minute (120 s in scenario 429; FAIL is printed, exit status unaffected);
 * in scenario 429 every retry of a refused post at least Retry-After later (printed); every participant DM'd exactly
 * once and one parent message per workspace (otherwise exit 1).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type FakeSlack, startFakeSlack } from "../../dev/fake-slack/index.ts";
import { upsertInstallation } from "../../src/chat/installations.repo.ts";
import { type Db, openDatabase, rows } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { upsertPeople } from "../../src/features/members/index.ts";
import { scheduleCreateInput, storeSchedule } from "../../src/features/schedules/index.ts";
import { deriveKey, encryptSecret } from "../../src/lib/crypto.ts";
import { askChild, stopChild } from "../lib/child.ts";
import { cpuMs } from "../lib/proc.ts";
import { type CpuProfile, summarizeProfileBusy } from "../lib/profile.ts";
import {
  ASK_PREFIX,
  BENCH_SESSION_SECRET_KEY,
  BENCH_SIGNING_SECRET,
  type InstanceAnswer,
  type InstanceRequest,
  PARENT_PREFIX,
  READY,
  TICK_S,
} from "./shared.ts";

/** Every DM this long after the due minute: 60 s normally, 120 s with 10 % 429s (issue 14's target). */
const TARGET_S = 60;
const TARGET_429_S = 120;
const targetS = (sc: { mode: "normal" | "429" }) => (sc.mode === "429" ? TARGET_429_S : TARGET_S);
/** The fake's Retry-After in scenario 429. */
const RETRY_AFTER_S = 1;
/** The due minute is the next whole UTC minute at least this far away when seeding ends. */
const LEAD_S = 20;
const POLL_MS = 250;
const PROGRESS_EVERY_MS = 5_000;
/** After the last DM (or the timeout): wait at least this long, and until no standup job is queued or retrying. */
const SETTLE_MIN_MS = 2_000;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 25_000;
const FAULT_RATIO = 0.1;
const FAULT_SEED = 20_260_302;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSX_LOADER = import.meta.resolve("tsx");
const INSTANCE_SCRIPT = fileURLToPath(new URL("./instance.ts", import.meta.url));
const USAGE = `usage: npm run bench:fanout -- [--scenario all|one|two|429] [--teams <n>=200] [--per-team <n>=50]
                              [--timeout <s>=180] [--settle <s>=300] [--no-pin] [--cpu-prof]
       what-if overrides: [--pool-max <n>] [--polling-interval <s>] [--retry-delay <s>] [--aligned-tick]
Needs a PostgreSQL server on 127.0.0.1: BENCH_DATABASE_URL or TEST_DATABASE_URL (any database on it; the
bench creates and drops its own). The easiest way: CI_ONLY_DB=1 bash .ci/run npm run bench:fanout
`;

// ---------------------------------------------------------------------------------------------- options

const { values: args } = parseArgs({
  options: {
    scenario: { type: "string", default: "all" },
    teams: { type: "string", default: "200" },
    "per-team": { type: "string", default: "50" },
    timeout: { type: "string", default: "180" },
    "no-pin": { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    settle: { type: "string", default: "300" },
    "pool-max": { type: "string" },
    "polling-interval": { type: "string" },
    "retry-delay": { type: "string" },
    "aligned-tick": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
function positiveInt(name: string, raw: string, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    process.stderr.write(`--${name} must be an integer 1-${max} (got ${raw})\n`);
    process.exit(2);
  }
  return n;
}
const TEAMS = positiveInt("teams", args.teams, 9_999);
const PER_TEAM = positiveInt("per-team", args["per-team"], 999);
const TIMEOUT_S = positiveInt("timeout", args.timeout, 3_600);
const SETTLE_S = positiveInt("settle", args.settle, 3_600);

/** Environment for the instances' what-if knobs (instance.ts), and how the report names them. */
const OVERRIDES: { env: Record<string, string>; label: string } = (() => {
  const env: Record<string, string> = {};
  const label: string[] = [];
  const add = (flag: string, name: string, raw: string | undefined, min: number) => {
    if (raw === undefined) return;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) {
      process.stderr.write(`--${flag} must be a number ≥ ${min} (got ${raw})\n`);
      process.exit(2);
    }
    env[name] = String(n);
    label.push(`${flag} ${n}`);
  };
  add("pool-max", "BENCH_POOL_MAX", args["pool-max"], 1);
  add("polling-interval", "BENCH_POLL_S", args["polling-interval"], 0.5);
  add("retry-delay", "BENCH_RETRY_DELAY_S", args["retry-delay"], 0);
  if (args["aligned-tick"]) {
    env.BENCH_ALIGNED_TICK = "1";
    label.push("aligned-tick");
  }
  return { env, label: label.join(", ") };
})();

interface Scenario {
  key: string;
  mode: "normal" | "429";
  instances: number;
}
const ALL_SCENARIOS: Scenario[] = [
  { key: "one", mode: "normal", instances: 1 },
  { key: "two", mode: "normal", instances: 2 },
  { key: "429", mode: "429", instances: 2 },
];
function pickScenarios(raw: string): Scenario[] {
  if (raw === "all") return ALL_SCENARIOS;
  const picked = raw.split(",").map((s) => {
    const t = s.trim();
    const found = ALL_SCENARIOS.find((sc, i) => sc.key === t || String(i + 1) === t);
    if (!found) {
      process.stderr.write(`--scenario: unknown "${t}" (one of all, one, two, 429, or 1, 2, 3)\n`);
      process.exit(2);
    }
    return found;
  });
  return [...new Set(picked)];
}
const SCENARIOS = pickScenarios(args.scenario);

const BASE_URL = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();
if (!BASE_URL) {
  process.stderr.write(`bench:fanout needs PostgreSQL and found neither BENCH_DATABASE_URL nor TEST_DATABASE_URL.\n\n`);
  process.stderr.write(USAGE);
  process.exit(2);
}
{
  let host = "";
  try {
    const u = new URL(BASE_URL);
    if (!/^postgres(ql)?:$/.test(u.protocol)) throw new Error("not postgres");
    host = u.hostname;
  } catch {
    process.stderr.write("BENCH_DATABASE_URL/TEST_DATABASE_URL must be a postgres:// URL\n");
    process.exit(2);
  }
  // It creates and drops databases: only ever against a server on this machine.
  if (!["127.0.0.1", "localhost"].includes(host)) {
    process.stderr.write(`refusing to run against database host ${host}: use a server on 127.0.0.1\n`);
    process.exit(2);
  }
}

function databaseUrl(name: string): string {
  const u = new URL(BASE_URL!);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: BASE_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------- pinning

function allowedCpus(): number[] {
  try {
    const line = readFileSync("/proc/self/status", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Cpus_allowed_list:"));
    if (line) {
      const cpus: number[] = [];
      for (const part of line.split(":")[1]!.trim().split(",")) {
        const [a, b] = part.split("-").map(Number);
        for (let c = a!; c <= (b ?? a!); c++) cpus.push(c);
      }
      if (cpus.length > 0) return cpus;
    }
  } catch {
    // not Linux: fall through
  }
  return Array.from({ length: availableParallelism() }, (_, i) => i);
}
const CPUS = allowedCpus();
const TASKSET =
  !args["no-pin"] && CPUS.length >= 2 && spawnSync("taskset", ["-c", String(CPUS[0]), "true"]).status === 0;

interface PinPlan {
  instances: (number | undefined)[];
  orchestrator: number | undefined;
  note: string;
}
/** Each instance on its own CPU when there are enough; this process (the fake) on a spare one, if any. */
function pinPlan(count: number): PinPlan {
  const none = { instances: Array.from({ length: count }, () => undefined), orchestrator: undefined };
  if (args["no-pin"]) return { ...none, note: "no pinning (--no-pin)" };
  if (!TASKSET) return { ...none, note: `no pinning (taskset unusable or ${CPUS.length} CPU)` };
  if (CPUS.length < count) return { ...none, note: `no pinning (${CPUS.length} CPUs for ${count} instances)` };
  if (CPUS.length >= count + 1) {
    const instances = CPUS.slice(1, count + 1);
    return {
      instances,
      orchestrator: CPUS[0],
      note: `instances on CPU ${instances.join(", ")}; fake Slack + orchestrator on CPU ${CPUS[0]}; PostgreSQL unpinned`,
    };
  }
  const instances = CPUS.slice(0, count);
  return {
    instances,
    orchestrator: undefined,
    note: `instances on CPU ${instances.join(", ")} (one each); fake Slack + orchestrator and PostgreSQL unpinned (${CPUS.length} CPUs)`,
  };
}
function pinSelf(cpus: number[]): void {
  if (!TASKSET) return;
  spawnSync("taskset", ["-a", "-p", "-c", cpus.join(","), String(process.pid)], { stdio: "ignore" });
}

// ---------------------------------------------------------------------------------------------- CPU accounting

/**
 * CPU time of this server's processes: the backends and background workers pg_stat_activity lists (other
 * PostgreSQL clusters on the machine are not counted). Backends that exit between two snapshots are lost.
 */
async function postgresCpuMs(db: Db): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const found = await rows<{ pid: number }>(db, sql`select pid from pg_stat_activity`).catch(() => []);
  for (const { pid } of found) {
    const ms = cpuMs(pid);
    if (ms !== undefined) out.set(String(pid), ms);
  }
  return out;
}
function machineJiffies(): { all: number; idle: number } | undefined {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
    const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
    return { all: f.reduce((a, b) => a + b, 0), idle: f[3]! + f[4]! };
  } catch {
    return undefined;
  }
}
interface CpuSnapshot {
  at: number;
  self: number;
  instances: (number | undefined)[];
  postgres: Map<string, number>;
  machine: { all: number; idle: number } | undefined;
}
async function cpuSnapshot(instances: Instance[], db: Db): Promise<CpuSnapshot> {
  const postgres = await postgresCpuMs(db);
  const u = process.cpuUsage();
  return {
    at: Date.now(),
    self: (u.user + u.system) / 1000,
    instances: instances.map((i) => (i.child.pid === undefined ? undefined : cpuMs(i.child.pid))),
    postgres,
    machine: machineJiffies(),
  };
}
/** Cores used by each part over the window, what the rest of the machine used, and CPU ms per DM. */
function cpuReport(a: CpuSnapshot, b: CpuSnapshot, instances: Instance[], dms: number): string {
  const wall = b.at - a.at;
  const cores = (ms: number) => (ms / wall).toFixed(2);
  let pgMs = 0;
  for (const [pid, ms] of b.postgres) pgMs += ms - (a.postgres.get(pid) ?? 0);
  const instMs = instances.map((_, i) => {
    const x = a.instances[i];
    const y = b.instances[i];
    return x !== undefined && y !== undefined ? y - x : 0;
  });
  const selfMs = b.self - a.self;
  const ours = instMs.reduce((x, y) => x + y, 0) + pgMs + selfMs;
  let machine = "machine n/a";
  if (a.machine && b.machine) {
    const busy =
      (b.machine.all - b.machine.idle - (a.machine.all - a.machine.idle)) / Math.max(1, b.machine.all - a.machine.all);
    const busyMs = busy * CPUS.length * wall;
    machine = `machine ${cores(busyMs)} of ${CPUS.length} cores busy, other processes ${cores(Math.max(0, busyMs - ours))}`;
  }
  const per = (ms: number) => (dms > 0 ? (ms / dms).toFixed(2) : "n/a");
  return (
    `CPU first→last DM (${(wall / 1000).toFixed(1)} s), in cores: ${instances.map((inst, i) => `instance ${inst.name} ${cores(instMs[i]!)}`).join(", ")}, ` +
    `postgres ${cores(pgMs)}, fake Slack + orchestrator ${cores(selfMs)}; ${machine}. ` +
    `CPU ms per DM: app ${per(instMs.reduce((x, y) => x + y, 0))}, postgres ${per(pgMs)}, fake ${per(selfMs)}`
  );
}

// ---------------------------------------------------------------------------------------------- instances

interface Instance {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  readonly schedulerStartedAt: number;
  readonly warnings: Map<string, number>;
  readonly tail: string[];
  readonly exited: Promise<void>;
}

const live = new Set<ChildProcess>();
const stopping = new Set<ChildProcess>();
function killAllNow(): void {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
process.on("exit", killAllNow);

function warningKey(line: string): string | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const rec = JSON.parse(line) as { level?: number; msg?: string; err?: unknown; job?: string };
    if ((rec.level ?? 0) < 40) return undefined;
    const err = rec.err === undefined ? "" : `: ${String(rec.err).replace(/\s+/g, " ").slice(0, 90)}`;
    return `${rec.job ? `[${rec.job}] ` : ""}${rec.msg ?? "?"}${err}`;
  } catch {
    return undefined;
  }
}

function startInstance(name: string, env: NodeJS.ProcessEnv, cpu: number | undefined): Promise<Instance> {
  const nodeArgs = ["--import", TSX_LOADER, INSTANCE_SCRIPT];
  const stdio: ("ignore" | "pipe" | "ipc")[] = ["ignore", "pipe", "pipe", "ipc"];
  const child =
    cpu === undefined
      ? spawn(process.execPath, nodeArgs, { cwd: ROOT, env, stdio })
      : spawn("taskset", ["-c", String(cpu), process.execPath, ...nodeArgs], { cwd: ROOT, env, stdio });
  live.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      live.delete(child);
      resolve();
    });
  });
  const tail: string[] = [];
  const warnings = new Map<string, number>();
  let instance: Instance | undefined;
  return new Promise<Instance>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      reject(new Error(`instance ${name} failed to start: ${why}\n${tail.map((l) => `  | ${l}`).join("\n")}`));
    };
    const timer = setTimeout(() => fail(`no "ready" line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const onLine = (line: string) => {
      tail.push(line.length > 400 ? `${line.slice(0, 400)}…` : line);
      if (tail.length > 30) tail.shift();
      const key = warningKey(line);
      if (key) warnings.set(key, (warnings.get(key) ?? 0) + 1);
      const ready = READY.exec(line.trim());
      if (ready && !instance) {
        clearTimeout(timer);
        instance = {
          name,
          child,
          port: Number(ready[1]),
          schedulerStartedAt: Number(ready[2]),
          warnings,
          tail,
          exited,
        };
        resolve(instance);
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    child.once("error", (err) => fail(err.message));
    child.once("exit", (code, signal) => {
      if (!instance) fail(`exited (${signal ?? `code ${code}`}) before "ready"`);
      else if (!stopping.has(child)) process.stderr.write(`instance ${name} exited unexpectedly (${signal ?? code})\n`);
    });
  });
}

function stopInstance(inst: Instance): Promise<void> {
  return stopChild(inst.child, inst.exited, stopping, `instance ${inst.name}`, STOP_TIMEOUT_MS);
}

async function ask(inst: Instance, msg: InstanceRequest): Promise<void> {
  await askChild<InstanceAnswer>(inst.child, msg, `instance ${inst.name}`, 30_000);
}

// ---------------------------------------------------------------------------------------------- the world

interface Team {
  index: number;
  id: string;
  name: string;
  token: string;
  botUserId: string;
  channelId: string;
  users: string[];
  /** Participant number (0..N-1) of users[0]. */
  firstParticipant: number;
}
interface World {
  teams: Team[];
  participants: number;
  /** DM channel id → participant number. */
  dmOwner: Map<string, number>;
  /** DM channel id of each participant. */
  dmOf: string[];
  /** Standup channel id → team index. */
  channelTeam: Map<string, number>;
}

function buildWorld(fake: FakeSlack): World {
  const teams: Team[] = [];
  const dmOwner = new Map<string, number>();
  const dmOf: string[] = [];
  const channelTeam = new Map<string, number>();
  for (let t = 0; t < TEAMS; t++) {
    const n = String(t + 1).padStart(4, "0");
    const team: Team = {
      index: t,
      id: `T${n}BENCH`,
      name: `Bench ${n}`,
      token: `xoxb-bench-${n}`,
      botUserId: `U${n}BOT`,
      channelId: `C${n}STANDUP`,
      users: Array.from({ length: PER_TEAM }, (_, u) => `U${n}P${String(u + 1).padStart(3, "0")}`),
      firstParticipant: t * PER_TEAM,
    };
    teams.push(team);
    fake.addTeam({ id: team.id, name: team.name, botToken: team.token, botUserId: team.botUserId });
    for (const u of team.users)
      fake.addUser(team.id, { id: u, name: u.toLowerCase(), real_name: `Person ${u}`, tz: "UTC" });
    fake.addChannel(team.id, { id: team.channelId, name: "standup", members: [...team.users, team.botUserId] });
    channelTeam.set(team.channelId, t);
    team.users.forEach((u, i) => {
      // Opens the bot's DM with the user now; conversations.open later answers with the same id.
      const dm = fake.dmFor(team.id, u);
      dmOwner.set(dm, team.firstParticipant + i);
      dmOf.push(dm);
    });
  }
  return { teams, participants: TEAMS * PER_TEAM, dmOwner, dmOf, channelTeam };
}

function hhmm(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

/** What the install flow and the member sync would have stored, and one schedule per workspace (its service). */
async function seed(db: Db, world: World, dueMs: number): Promise<void> {
  const key = deriveKey(BENCH_SESSION_SECRET_KEY, "token-encryption");
  const now = new Date();
  const clock = { now: () => now };
  // The pool has a few connections: workspaces are seeded a few side by side (all 200 at once would queue for the
  // pool past its acquire timeout on a loaded machine), each in its own order.
  const SIDE_BY_SIDE = 4;
  let next = 0;
  const seedOne = async (t: Team) => {
    await upsertInstallation(
      db,
      {
        teamId: t.id,
        teamName: t.name,
        botUserId: t.botUserId,
        botTokenEnc: encryptSecret(key, t.token),
        scopes: "chat:write,commands,reactions:write,channels:read,im:write,users:read",
        installerUserId: t.users[0]!,
      },
      now,
    );
    await upsertPeople(
      db,
      t.id,
      t.users.map((u) => ({
        userId: u,
        realName: `Person ${u}`,
        displayName: u.toLowerCase(),
        email: `${u.toLowerCase()}@example.com`,
        tz: "UTC",
        active: true,
        slackAdmin: false,
      })),
      now,
    );
    await storeSchedule(
      { db, clock },
      t.id,
      scheduleCreateInput.parse({
        channel_id: t.channelId,
        schedule_time: hhmm(dueMs),
        schedule_tz: "UTC",
        schedule_days: "mon,tue,wed,thu,fri,sat,sun",
      }),
    );
  };
  await Promise.all(
    Array.from({ length: SIDE_BY_SIDE }, async () => {
      while (next < world.teams.length) await seedOne(world.teams[next++]!);
    }),
  );
}

// ---------------------------------------------------------------------------------------------- measuring

/** Reads the fake's chat.postMessage calls as they arrive (incrementally: the call list only grows). */
class Watcher {
  #cursor = 0;
  readonly firstAt: (number | undefined)[];
  delivered = 0;
  askCalls = 0;
  parentCalls: number[];
  injected429 = 0;
  otherFaults = 0;
  rejected = 0;
  firstMs: number | undefined;
  lastMs: number | undefined;

  constructor(private readonly world: World) {
    this.firstAt = new Array<number | undefined>(world.participants).fill(undefined);
    this.parentCalls = new Array<number>(world.teams.length).fill(0);
  }

  poll(fake: FakeSlack): void {
    const calls = fake.callsTo("chat.postMessage");
    for (; this.#cursor < calls.length; this.#cursor++) {
      const c = calls[this.#cursor]!;
      if (c.faulted) {
        if (c.error === "ratelimited") this.injected429 += 1;
        else this.otherFaults += 1;
        continue;
      }
      if (!c.ok) {
        this.rejected += 1;
        continue;
      }
      const channel = String(c.args.channel ?? "");
      const text = String(c.args.text ?? "");
      const p = this.world.dmOwner.get(channel);
      if (p !== undefined && text.startsWith(ASK_PREFIX)) {
        this.askCalls += 1;
        if (this.firstAt[p] === undefined) {
          this.firstAt[p] = c.at;
          this.delivered += 1;
          this.firstMs = Math.min(this.firstMs ?? c.at, c.at);
          this.lastMs = Math.max(this.lastMs ?? c.at, c.at);
        }
        continue;
      }
      const t = this.world.channelTeam.get(channel);
      if (t !== undefined && c.args.thread_ts === undefined && text.startsWith(PARENT_PREFIX))
        this.parentCalls[t]! += 1;
    }
  }
}

interface JobRow {
  name: string;
  state: string;
  n: number;
}
async function pendingStandupJobs(db: Db): Promise<number> {
  const found = await rows<JobRow>(
    db,
    sql`select name, state::text as state, count(*)::int as n from pgboss.job
        where name like 'standup.%' and state::text in ('created', 'retry', 'active') group by 1, 2`,
  );
  return found.reduce((s, r) => s + r.n, 0);
}

interface DbStats {
  lines: string[];
  claimFirstMs: number | undefined;
  claimLastMs: number | undefined;
}
function quantiles(values: number[], qs: number[]): number[] {
  const s = [...values].sort((a, b) => a - b);
  return qs.map((q) =>
    s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!,
  );
}
const f1 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "n/a" : x.toFixed(1));

/** Where the time went, from the database: claim times, pg-boss job timings and retries, post claims. */
async function dbStats(db: Db, dueMs: number): Promise<DbStats> {
  const lines: string[] = [];
  const rel = (d: Date | string | null) => (d === null ? undefined : (new Date(d).getTime() - dueMs) / 1000);
  const [runs] = await rows<{ n: number; first: string | null; last: string | null; parents: number }>(
    db,
    sql`select count(*)::int as n, min(created_at) as first, max(created_at) as last,
        count(parent_ts)::int as parents from standup_runs`,
  );
  const jobs = await rows<{
    name: string;
    state: string;
    created: string;
    started: string | null;
    completed: string | null;
    retries: number;
  }>(
    db,
    sql`select name, state::text as state, created_on as created, started_on as started, completed_on as completed,
        retry_count as retries from pgboss.job where name in ('standup.fanout', 'standup.asks', 'standup.ask')`,
  );
  const fanout = jobs.filter((j) => j.name === "standup.fanout");
  const chunks = jobs.filter((j) => j.name === "standup.asks");
  const asks = jobs.filter((j) => j.name === "standup.ask");
  const ms = (d: string | null) => (d === null ? Number.NaN : new Date(d).getTime());
  const claimTimes = fanout.map((j) => ms(j.created));
  const claimFirstMs = claimTimes.length ? Math.min(...claimTimes) : undefined;
  const claimLastMs = claimTimes.length ? Math.max(...claimTimes) : undefined;
  lines.push(
    `runs: ${runs?.n ?? 0} claimed (ticks at due +${f1(rel(runs?.first ?? null))}…+${f1(rel(runs?.last ?? null))} s), ` +
      `fan-out jobs enqueued due +${f1(claimFirstMs === undefined ? undefined : (claimFirstMs - dueMs) / 1000)}…+${f1(claimLastMs === undefined ? undefined : (claimLastMs - dueMs) / 1000)} s, ` +
      `${runs?.parents ?? 0} parent messages recorded`,
  );
  const describe = (label: string, list: typeof jobs) => {
    const done = list.filter((j) => j.state === "completed" && j.started && j.completed);
    const firstTry = done.filter((j) => j.retries === 0);
    const wait = firstTry.map((j) => (ms(j.started) - ms(j.created)) / 1000);
    const run = done.map((j) => (ms(j.completed) - ms(j.started)) / 1000);
    const total = done.map((j) => (ms(j.completed) - ms(j.created)) / 1000);
    const [w50, w95, wMax] = quantiles(wait, [0.5, 0.95, 1]);
    const [r50, r95, rMax] = quantiles(run, [0.5, 0.95, 1]);
    const [t50, t95, tMax] = quantiles(total, [0.5, 0.95, 1]);
    const retried = list.filter((j) => j.retries > 0);
    const byState = new Map<string, number>();
    for (const j of list) byState.set(j.state, (byState.get(j.state) ?? 0) + 1);
    const states = [...byState].map(([s, n]) => `${s} ${n}`).join(", ");
    return (
      `${label}: ${list.length} jobs (${states}); queue wait (first try) p50/p95/max ${f1(w50)}/${f1(w95)}/${f1(wMax)} s; ` +
      `start→complete (whole batch) ${f1(r50)}/${f1(r95)}/${f1(rMax)} s; enqueue→complete ${f1(t50)}/${f1(t95)}/${f1(tMax)} s; ` +
      `retried ${retried.length} (max retry_count ${Math.max(0, ...list.map((j) => j.retries))})`
    );
  };
  lines.push(describe("standup.fanout", fanout));
  lines.push(describe("standup.asks (chunks of asks)", chunks));
  lines.push(describe("standup.ask (single asks a chunk left)", asks));
  const posts = await rows<{ state: string; n: number; attempts: number }>(
    db,
    sql`select state, count(*)::int as n, sum(attempts)::int as attempts from chat_posts group by state order by state`,
  );
  lines.push(`chat_posts: ${posts.map((p) => `${p.state} ${p.n} (attempts ${p.attempts})`).join(", ") || "none"}`);
  return { lines, claimFirstMs, claimLastMs };
}

/** For participants without a DM: their ask job and post claim, to tell "still retrying" from "lost". */
async function whyMissing(db: Db, users: string[]): Promise<string[]> {
  const shown = users.slice(0, 5);
  const lines = [
    `not DM'd: ${users.length} participant(s)${users.length > shown.length ? `, first ${shown.length}` : ""}:`,
  ];
  for (const user of shown) {
    const [job] = await rows<{ state: string; retries: number; start_after: string }>(
      db,
      sql`select state::text as state, retry_count as retries, start_after from pgboss.job
          where (name = 'standup.ask' and data->>'userId' = ${user}) or (name = 'standup.asks' and data->'userIds' ? ${user})
          order by created_on desc limit 1`,
    ).catch(() => []);
    const [post] = await rows<{ state: string; attempts: number }>(
      db,
      sql`select state, attempts from chat_posts where key like ${`run:%:ask:${user}`} limit 1`,
    ).catch(() => []);
    const jobText = job
      ? `ask job ${job.state}, retry_count ${job.retries}${job.state === "retry" ? `, next try at ${new Date(job.start_after).toISOString()}` : ""}`
      : "no ask job (fan-out never added this participant)";
    const postText = post ? `chat_posts ${post.state} after ${post.attempts} attempt(s)` : "no chat_posts claim";
    lines.push(`  ${user}: ${jobText}; ${postText}`);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------- a scenario

interface Outcome {
  scenario: Scenario;
  participants: number;
  delivered: number;
  duplicates: number;
  missing: number;
  parentsWrong: number;
  dueToFirst: number | undefined;
  firstToLast: number | undefined;
  dueToLast: number | undefined;
  rate: number | undefined;
  injected429: number;
  timeOk: boolean;
  /** Scenario 429: whether every retry of a refused post came at least Retry-After later. */
  retryAfter: RetryAfterCheck | undefined;
  exactlyOnce: boolean;
}

function modeLabel(sc: Scenario): string {
  return `${sc.mode === "429" ? `429 ${FAULT_RATIO * 100}%` : "normal"}${OVERRIDES.label ? "*" : ""}`;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

const cleanups: (() => Promise<void>)[] = [];
async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const fn = cleanups.pop()!;
    await fn().catch((err: unknown) => process.stderr.write(`cleanup: ${String(err)}\n`));
  }
}

async function runScenario(sc: Scenario, n: number): Promise<Outcome> {
  const dbName = `upbeat_bench_${process.pid}_${n}`;
  const mark = cleanups.length;
  try {
    say(`\n== scenario ${sc.key}: ${modeLabel(sc)}, ${sc.instances} instance(s), ${TEAMS} × ${PER_TEAM} participants`);
    await admin(`create database ${dbName}`);
    cleanups.push(() => admin(`drop database if exists ${dbName} with (force)`));
    const database = await openDatabase(databaseUrl(dbName), { poolMax: 4 });
    cleanups.push(() => database.close());
    await runMigrations(database);

    const fake = await startFakeSlack();
    cleanups.push(() => fake.close());
    const world = buildWorld(fake);
    const seedStart = Date.now();
    // The schedule time is written while seeding, so the minute is picked first, with 5 s for the seeding itself.
    const dueMs = Math.ceil((Date.now() + LEAD_S * 1000 + 5_000) / 60_000) * 60_000;
    await seed(database.db, world, dueMs);
    say(
      `seeded ${TEAMS} installations, ${world.participants} members, ${TEAMS} schedules at ${hhmm(dueMs)} UTC ` +
        `in ${((Date.now() - seedStart) / 1000).toFixed(1)} s; due in ${((dueMs - Date.now()) / 1000).toFixed(0)} s`,
    );
    if (sc.mode === "429") {
      fake.setRandomFaults({
        method: "chat.postMessage",
        ratio: FAULT_RATIO,
        fault: { status: 429, retryAfter: RETRY_AFTER_S },
        seed: FAULT_SEED,
      });
    }

    const plan = pinPlan(sc.instances);
    say(`pinning: ${plan.note}`);
    pinSelf(plan.orchestrator === undefined ? CPUS : [plan.orchestrator]);
    cleanups.push(async () => pinSelf(CPUS));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "development",
      DATABASE_URL: databaseUrl(dbName),
      CHAT_API_URL: fake.url,
      CHAT_OAUTH_URL: "http://127.0.0.1:9/oauth/v2/authorize",
      CHAT_CLIENT_ID: "bench-client-id",
      CHAT_CLIENT_SECRET: "bench-client-secret",
      CHAT_SIGNING_SECRET: BENCH_SIGNING_SECRET,
      SESSION_SECRET_KEY: BENCH_SESSION_SECRET_KEY,
      EMAIL_API_URL: "http://127.0.0.1:9",
      APP_URL: "http://127.0.0.1:3000",
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "WARNING",
      ...OVERRIDES.env,
    };
    const names = ["A", "B", "C", "D"];
    // Started together, as a deployment's replicas would be.
    const instances = await Promise.all(
      Array.from({ length: sc.instances }, (_, i) => startInstance(names[i] ?? `#${i}`, env, plan.instances[i])),
    ).catch(async (err: unknown) => {
      killAllNow();
      throw err;
    });
    for (const inst of instances) cleanups.push(() => stopInstance(inst));
    const ticks = instances.map((inst) => {
      const k = Math.max(0, Math.ceil((dueMs - inst.schedulerStartedAt) / (TICK_S * 1000)));
      return (inst.schedulerStartedAt + k * TICK_S * 1000 - dueMs) / 1000;
    });
    say(
      `instances ready: ${instances.map((inst, i) => `${inst.name} (pid ${inst.child.pid}, first tick after due at +${ticks[i]!.toFixed(1)} s)`).join(", ")}`,
    );
    if (Date.now() > dueMs) say(`note: instances became ready ${((Date.now() - dueMs) / 1000).toFixed(1)} s after due`);

    const profDir = args["cpu-prof"] ? mkdtempSync(join(tmpdir(), "upbeat-fanout-prof-")) : undefined;
    const watcher = new Watcher(world);
    const deadline = dueMs + TIMEOUT_S * 1000;
    let nextProgress = dueMs + PROGRESS_EVERY_MS;
    let profiling = false;
    let cpuAtFirst: CpuSnapshot | undefined;
    const checkAlive = () => {
      const dead = instances.find((i) => i.child.exitCode !== null || i.child.signalCode !== null);
      if (dead) throw new Error(`instance ${dead.name} died:\n${dead.tail.map((l) => `  | ${l}`).join("\n")}`);
    };
    const progress = () => {
      if (Date.now() < nextProgress) return;
      nextProgress += PROGRESS_EVERY_MS;
      say(
        `  due +${((Date.now() - dueMs) / 1000).toFixed(0).padStart(3)} s: ${watcher.delivered}/${world.participants} DMs` +
          `${watcher.injected429 ? `, ${watcher.injected429} 429s injected` : ""}`,
      );
    };
    while (watcher.delivered < world.participants && Date.now() < deadline) {
      if (profDir && !profiling && Date.now() >= dueMs - 1_000) {
        await Promise.all(instances.map((inst) => ask(inst, { type: "profile-start" })));
        profiling = true;
      }
      watcher.poll(fake);
      if (!cpuAtFirst && watcher.delivered > 0) cpuAtFirst = await cpuSnapshot(instances, database.db);
      checkAlive();
      progress();
      await sleep(POLL_MS);
    }
    watcher.poll(fake);
    let cpuAtEnd = await cpuSnapshot(instances, database.db);
    const inTime = watcher.delivered === world.participants;
    if (!inTime) {
      say(`  ${TIMEOUT_S} s after due: ${watcher.delivered}/${world.participants} DMs; waiting for the queue to drain`);
    }

    // Let retries and stragglers finish (a late DM is slow, not lost) before counting duplicates.
    const settleStart = Date.now();
    let pending = await pendingStandupJobs(database.db);
    while ((pending > 0 || Date.now() - settleStart < SETTLE_MIN_MS) && Date.now() - settleStart < SETTLE_S * 1000) {
      await sleep(500);
      const before = watcher.delivered;
      watcher.poll(fake);
      if (!inTime && watcher.delivered > before && watcher.delivered === world.participants) {
        cpuAtEnd = await cpuSnapshot(instances, database.db);
      }
      checkAlive();
      progress();
      pending = await pendingStandupJobs(database.db);
    }
    if (profDir && profiling) {
      await Promise.all(
        instances.map((inst) =>
          ask(inst, { type: "profile-stop", file: join(profDir, `${sc.key}-${inst.name}.cpuprofile`) }),
        ),
      );
    }
    if (pending > 0) say(`  ${pending} standup jobs still queued or retrying after ${SETTLE_S} s of settling`);
    watcher.poll(fake);

    // The final word is the fake's message store, not the call log.
    let duplicates = 0;
    let missing = 0;
    const missingUsers: string[] = [];
    world.dmOf.forEach((dm, p) => {
      const count = fake.messages(dm).filter((m) => m.text.startsWith(ASK_PREFIX)).length;
      if (count === 0) {
        missing += 1;
        const team = world.teams[Math.floor(p / PER_TEAM)]!;
        missingUsers.push(team.users[p % PER_TEAM]!);
      } else duplicates += count - 1;
    });
    if (missingUsers.length > 0) for (const line of await whyMissing(database.db, missingUsers)) say(line);
    let parentsWrong = 0;
    for (const t of world.teams) {
      const parents = fake.messages(t.channelId).filter((m) => !m.thread_ts && m.text.startsWith(PARENT_PREFIX));
      if (parents.length !== 1) parentsWrong += 1;
    }
    const delivered = world.participants - missing;
    const stats = await dbStats(database.db, dueMs).catch((err: unknown) => ({
      lines: [`database stats failed: ${String(err)}`],
      claimFirstMs: undefined,
      claimLastMs: undefined,
    }));

    const s = (x: number | undefined) => (x === undefined ? undefined : x / 1000);
    const dueToFirst = s(watcher.firstMs === undefined ? undefined : watcher.firstMs - dueMs);
    const firstToLast = s(
      watcher.firstMs === undefined || watcher.lastMs === undefined ? undefined : watcher.lastMs - watcher.firstMs,
    );
    // Known once every DM arrived, even after the timeout (then it is a timing FAIL, not a missing DM).
    const dueToLast =
      watcher.delivered === world.participants && watcher.lastMs !== undefined ? s(watcher.lastMs - dueMs) : undefined;
    const outcome: Outcome = {
      scenario: sc,
      participants: world.participants,
      delivered,
      duplicates,
      missing,
      parentsWrong,
      dueToFirst,
      firstToLast,
      dueToLast,
      rate: firstToLast ? watcher.delivered / firstToLast : undefined,
      injected429: watcher.injected429,
      timeOk: dueToLast !== undefined && dueToLast <= targetS(sc),
      retryAfter: sc.mode === "429" ? retryAfterCheck(fake) : undefined,
      exactlyOnce: missing === 0 && duplicates === 0 && parentsWrong === 0,
    };

    say(
      `result: ${delivered}/${world.participants} DMs, ${duplicates} duplicates, ${parentsWrong} workspaces without exactly one parent; ` +
        `due→first ${f1(dueToFirst)} s, first→last ${f1(firstToLast)} s, due→last ${f1(dueToLast)} s`,
    );
    say(
      `fake: ${watcher.askCalls} ask posts accepted, ${watcher.injected429} 429s injected, ${watcher.otherFaults} other faults, ` +
        `${watcher.rejected} posts rejected; ${fake.callsTo("conversations.open").length} conversations.open, ` +
        `${fake.callsTo("conversations.members").length} conversations.members, ${fake.unexpected.length} unexpected calls`,
    );
    if (outcome.retryAfter) say(retryAfterLine(outcome.retryAfter));
    for (const line of stats.lines) say(line);
    if (cpuAtFirst) say(cpuReport(cpuAtFirst, cpuAtEnd, instances, watcher.delivered));
    for (const inst of instances) {
      const list = [...inst.warnings].sort((a, b) => b[1] - a[1]);
      if (list.length === 0) continue;
      say(`warnings from instance ${inst.name}:`);
      for (const [k, c] of list.slice(0, 12)) say(`  ${String(c).padStart(6)} × ${k}`);
      if (list.length > 12) say(`  … and ${list.length - 12} more kinds`);
    }
    if (profDir) {
      for (const inst of instances) {
        const file = join(profDir, `${sc.key}-${inst.name}.cpuprofile`);
        try {
          const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
          say(`CPU profile of instance ${inst.name} (${file}):`);
          say(
            summarizeProfileBusy(profile)
              .split("\n")
              .map((l) => `  ${l}`)
              .join("\n"),
          );
        } catch (err) {
          say(`no CPU profile for instance ${inst.name}: ${String(err)}`);
        }
      }
    }
    return outcome;
  } finally {
    while (cleanups.length > mark) {
      const fn = cleanups.pop()!;
      await fn().catch((err: unknown) => process.stderr.write(`cleanup: ${String(err)}\n`));
    }
  }
}

// ---------------------------------------------------------------------------------------------- report

interface RetryAfterCheck {
  /** 429s followed by another post to the same channel (the retry). */
  retried: number;
  /** Retries that came sooner than Retry-After. */
  tooSoon: number;
  gapsMs: number[];
}

/**
 * Retry-After honoured: for every 429 the fake answered to chat.postMessage, the next post to the same channel (each
 * ask is the only message of its DM) must come at least RETRY_AFTER_S later; the spread shows whether it came much
 * later (a queue backoff) rather than right after the advised wait.
 */
function retryAfterCheck(fake: FakeSlack): RetryAfterCheck {
  const refusedAt = new Map<string, number>();
  const gapsMs: number[] = [];
  for (const c of fake.callsTo("chat.postMessage")) {
    const channel = String(c.args.channel ?? "");
    const at = refusedAt.get(channel);
    if (at !== undefined) {
      gapsMs.push(c.at - at);
      refusedAt.delete(channel);
    }
    if (c.faulted && c.error === "ratelimited") refusedAt.set(channel, c.at);
  }
  gapsMs.sort((a, b) => a - b);
  // 5 ms for the clocks' granularity (the pause is set on the database's clock, the gap read on the fake's).
  const tooSoon = gapsMs.filter((g) => g < RETRY_AFTER_S * 1000 - 5).length;
  return { retried: gapsMs.length, tooSoon, gapsMs };
}

function retryAfterLine(r: RetryAfterCheck): string {
  const q = (p: number) =>
    r.gapsMs.length
      ? (r.gapsMs[Math.min(r.gapsMs.length - 1, Math.floor(p * r.gapsMs.length))]! / 1000).toFixed(2)
      : "n/a";
  return (
    `Retry-After (${RETRY_AFTER_S} s) honoured: ${r.tooSoon === 0 ? "PASS" : "FAIL"}; ${r.retried} 429s retried, ${r.tooSoon} sooner; ` +
    `429 → next post to the same channel: min ${q(0)} s, p50 ${q(0.5)} s, p90 ${q(0.9)} s, max ${q(1)} s`
  );
}

function table(outcomes: Outcome[]): string {
  const head = [
    "mode",
    "instances",
    "participants",
    "DMs delivered",
    "duplicates",
    "due→first DM s",
    "first→last DM s",
    "due→last DM s",
    "DMs/s",
    "429s injected",
    "target",
    "exactly once",
    "Retry-After",
  ];
  const body = outcomes.map((o) => [
    modeLabel(o.scenario),
    String(o.scenario.instances),
    String(o.participants),
    String(o.delivered),
    String(o.duplicates),
    f1(o.dueToFirst),
    f1(o.firstToLast),
    f1(o.dueToLast),
    o.rate === undefined ? "n/a" : o.rate.toFixed(0),
    String(o.injected429),
    `${o.timeOk ? "PASS" : "FAIL"} (≤ ${targetS(o.scenario)} s)`,
    o.exactlyOnce ? "PASS" : "FAIL",
    o.retryAfter === undefined ? "n/a" : o.retryAfter.tooSoon === 0 ? "PASS" : "FAIL",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
}

async function main(): Promise<number> {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: stopping the instances and dropping the bench databases\n`);
      killAllNow();
      const forced = setTimeout(() => process.exit(130), 10_000);
      forced.unref();
      runCleanups().finally(() => process.exit(130));
    });
  }
  say(
    `bench:fanout — ${TEAMS} workspaces × ${PER_TEAM} members, scenarios ${SCENARIOS.map((s) => s.key).join(", ")}; ` +
      `node ${process.version}, ${CPUS.length} CPUs; database server ${new URL(BASE_URL!).host}`,
  );
  if (OVERRIDES.label) say(`* what-if overrides, NOT the production settings: ${OVERRIDES.label}`);
  say(`load average before starting: ${loadAverage()} (other work on this machine skews every number below)`);
  const outcomes: Outcome[] = [];
  let n = 0;
  for (const sc of SCENARIOS) {
    n += 1;
    try {
      outcomes.push(await runScenario(sc, n));
    } catch (err) {
      process.stderr.write(
        `scenario ${sc.key} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      await runCleanups();
      return 1;
    }
  }
  say(`\n${table(outcomes)}`);
  say(
    `\ntimes are from the due minute (schedule_time :00) to when the fake received the post; the scheduler ticks every ${TICK_S} s ` +
      "at :00.5 and :30.5 of the wall clock, so due→first DM is the fan-out's own start (~2 s). DMs/s = DMs / (first→last). " +
      `A DM that arrived after --timeout but before the queue drained counts as late (time FAIL), not missing.`,
  );
  const correctnessFailed = outcomes.some((o) => !o.exactlyOnce);
  const timeFailed = outcomes.some((o) => !o.timeOk);
  say(
    correctnessFailed
      ? "FAIL: some participant was not DM'd exactly once by the end of the settle window, or a workspace lacks exactly " +
          "one parent message (see 'not DM'd' above: a job still in retry is late, not lost, but still counts here)"
      : `exactly once: PASS in every scenario${timeFailed ? "; time target: FAIL in some (timing only, exit 0)" : "; time target: PASS"}`,
  );
  return correctnessFailed ? 1 : 0;
}

const code = await main();
await runCleanups();
process.exit(code);
