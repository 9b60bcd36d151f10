/**
 * Seed for the insight and export benchmarks: one workspace with `members` members and, for every weekday in
 * [fromDate, toDate], one closed standup run per schedule, a participant row for every member of that
 * schedule and a response for ~85% of them (bench/seed/generate.ts makes them up, deterministically).
 *
 * Everything is written through the features, as the app writes it: the installation (install), the members
 * (members), the schedules (the schedules service, with its validation), and the history through the
 * standups feature's bulk import, which stores answers the way submitting them does. What stays here is
 * bulk-load tuning: the secondary indexes of the two big tables are dropped and rebuilt around the import,
 * all in one transaction, then VACUUM ANALYZE. The library function never migrates; callers (cli.ts, the
 * benchmarks) do.
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { findInstallation, upsertInstallation } from "../../src/chat/installations.repo.ts";
import { type Database, type Executor, openDatabase, rows } from "../../src/db/client.ts";
import { upsertPeople } from "../../src/features/members/index.ts";
import { scheduleCreateInput, storeSchedule } from "../../src/features/schedules/index.ts";
import { importHistory } from "../../src/features/standups/index.ts";
import { cpuMs } from "../lib/proc.ts";
import { type BenchSchedule, benchMembers, benchRuns, checkBlockerLists, memberUserId } from "./generate.ts";

export { memberUserId };

export interface SeedOptions {
  teamId: string;
  members: number;
  /** First and last local date (YYYY-MM-DD, both included); only Monday–Friday get runs. */
  fromDate: string;
  toDate: string;
  /** Members are split round-robin over this many schedules (default 1). */
  schedulesPerTeam?: number;
  /** PRNG seed (default 42): the same seed and options give the same rows. */
  seed?: number;
  /** Mean share of asked members who answer (default 0.85); each member has a propensity around it. */
  answerRate?: number;
  /** Share of responses with an active blocker (default 0.10). */
  blockerRate?: number;
  /** Stored as installations.bot_token_enc (default a placeholder; nothing in the benches decrypts it). */
  botTokenEnc?: string;
  /** Delete the team's rows first (otherwise an existing installation is an error). */
  replace?: boolean;
  /** Progress lines (default silent). */
  log?: (line: string) => void;
}

export interface SeedResult {
  teamId: string;
  /** Member 1, role admin: sign in as this user. */
  adminUserId: string;
  members: number;
  schedules: number;
  /** The seeded standups' ids, in creation order. */
  scheduleIds: string[];
  runs: number;
  participants: number;
  responses: number;
  activeBlockers: number;
  /** Milliseconds per step, in order. */
  timings: [string, number][];
  totalMs: number;
}

const MAX_MEMBERS = 99_999;
const MEMBERS_PER_UPSERT = 1_000;
// Every table holding rows of a bench workspace, children first: `replace` deletes the team from each.
const TEAM_TABLES = [
  "responses",
  "run_participants",
  "standup_runs",
  "schedules",
  "sessions",
  "members",
  "workspace_calendars",
  "installations",
];

/** Weekdays (Mon–Fri) in [from, to], both included. */
export function weekdaysBetween(from: string, to: string): number {
  let n = 0;
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) {
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) n += 1;
  }
  return n;
}

/** The member count that gives about `rows` responses over [from, to] at the default answer rate. */
export function membersForResponses(rows: number, from: string, to: string, answerRate = 0.85): number {
  return Math.ceil(rows / (weekdaysBetween(from, to) * answerRate));
}

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function shiftIsoDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDate(d);
}

async function count(ex: Executor, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rows<{ n: string | number }>(ex, query);
  return Number(row?.n ?? 0);
}

/** `target`: a database URL (opened and closed here), or an open Database (left open: the MCP smoke test's). */
export async function seedWorkspace(target: string | Database, opts: SeedOptions): Promise<SeedResult> {
  const members = opts.members;
  if (!Number.isInteger(members) || members < 1 || members > MAX_MEMBERS) {
    throw new Error(`members must be a whole number from 1 to ${MAX_MEMBERS}`);
  }
  const schedules = opts.schedulesPerTeam ?? 1;
  if (!Number.isInteger(schedules) || schedules < 1 || schedules > members) {
    throw new Error("schedulesPerTeam must be a whole number from 1 to members");
  }
  for (const d of [opts.fromDate, opts.toDate]) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) throw new Error(`dates must be YYYY-MM-DD (got ${d})`);
  }
  if (opts.fromDate > opts.toDate) throw new Error("fromDate must not be after toDate");
  const seed = opts.seed ?? 42;
  if (!Number.isInteger(seed) || seed < 0 || seed > 1_000_000) throw new Error("seed must be 0..1000000");
  const generate = {
    members,
    schedules,
    seed,
    answerRate: opts.answerRate ?? 0.85,
    blockerRate: opts.blockerRate ?? 0.1,
    fromDate: opts.fromDate,
    toDate: opts.toDate,
  };
  checkBlockerLists();
  const log = opts.log ?? (() => {});
  const team = opts.teamId;
  // Rows carry the first day as their creation time, as if the workspace had been installed then.
  const createdAt = new Date(`${opts.fromDate}T00:00:00Z`);
  const clock = { now: () => createdAt };

  // One connection: the steps share the transaction, and its backend's CPU time is one process to read.
  const database = typeof target === "string" ? await openDatabase(target, { poolMax: 1 }) : target;
  const timings: [string, number][] = [];
  const t0 = performance.now();
  let backendPid = 0;
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const cpu0 = cpuMs(backendPid);
    const out = await fn();
    const ms = performance.now() - t;
    const cpu1 = cpuMs(backendPid);
    timings.push([name, ms]);
    const cpu = cpu0 !== undefined && cpu1 !== undefined ? `, backend CPU ${((cpu1 - cpu0) / 1000).toFixed(1)} s` : "";
    log(`  ${name}: ${(ms / 1000).toFixed(1)} s${cpu}`);
    return out;
  };

  try {
    let commitStarted = 0;
    const imported = await database.db.transaction(async (tx) => {
      // On the same machine, the backend's CPU time shows how much of a step was work and how much waiting.
      backendPid = await count(tx, sql`select pg_backend_pid() as n`);
      await tx.execute(sql`set local work_mem = '256MB'`);
      await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
      if (opts.replace) {
        await step("delete the team's rows", async () => {
          for (const table of TEAM_TABLES) {
            await tx.execute(sql`delete from ${sql.identifier(table)} where team_id = ${team}`);
          }
        });
      } else if (await findInstallation(tx, team)) {
        throw new Error(
          `team ${team} already exists in this database (replace: true, or --replace on the CLI, deletes it first)`,
        );
      }

      const people = benchMembers(generate);
      const created = await step("installation, members, schedules", async () => {
        await upsertInstallation(
          tx,
          {
            teamId: team,
            teamName: `Bench ${team}`,
            botUserId: "B0BENCHBOT",
            botTokenEnc: opts.botTokenEnc ?? "bench-placeholder",
            scopes: "chat:write,commands,im:write,users:read",
            installerUserId: memberUserId(1),
          },
          createdAt,
        );
        for (let i = 0; i < people.length; i += MEMBERS_PER_UPSERT) {
          const chunk = people.slice(i, i + MEMBERS_PER_UPSERT).map((m) => m.person);
          await upsertPeople(tx, team, chunk, createdAt);
        }
        const out: BenchSchedule[] = [];
        for (let n = 1; n <= schedules; n++) {
          const s = await storeSchedule(
            { db: tx, clock },
            team,
            scheduleCreateInput.parse({
              channel_id: `C0BENCH${n}`,
              schedule_time: "09:00",
              schedule_tz: "UTC",
              schedule_days: "mon,tue,wed,thu,fri",
            }),
          );
          out.push({ id: s.id, channelId: s.channelId, questions: s.questions });
        }
        return out;
      });

      // Bulk load: secondary indexes of the two big tables are dropped and rebuilt after the import (a sorted
      // build is many times faster than row-by-row maintenance, the GIN index most of all), inside the
      // transaction, unless the tables already hold more rows than this seed adds (rebuilding would cost more).
      const expected = members * weekdaysBetween(opts.fromDate, opts.toDate);
      const existing = await count(
        tx,
        sql`select coalesce(sum(greatest(reltuples, 0)), 0)::bigint as n from pg_class
            where relname in ('responses', 'run_participants') and relnamespace = current_schema()::regnamespace`,
      );
      const dropped = await step("drop secondary indexes", async () => {
        if (existing > expected) return [];
        const found = await rows<{ name: string; def: string }>(
          tx,
          sql`select ic.relname as name, pg_get_indexdef(i.indexrelid) as def
              from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
              join pg_namespace n on n.oid = t.relnamespace
              where n.nspname = current_schema() and t.relname in ('responses', 'run_participants')
                and not i.indisprimary
                and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
                -- Kept: each participant row inserted looks up its member's answer by it (migration 0035's trigger).
                and ic.relname <> 'responses_run_user_idx'`,
        );
        for (const r of found) await tx.execute(sql`drop index ${sql.identifier(r.name)}`);
        return found;
      });

      const counts = await step("history: runs, participants, responses", () =>
        importHistory(tx, team, benchRuns(generate, created, people)),
      );
      await step(`rebuild ${dropped.length} indexes`, async () => {
        for (const r of dropped) await tx.execute(sql.raw(r.def));
      });
      commitStarted = performance.now();
      return { ...counts, scheduleIds: created.map((c) => c.id) };
    });
    const commitMs = performance.now() - commitStarted;
    timings.push(["commit", commitMs]);
    log(`  commit: ${(commitMs / 1000).toFixed(1)} s`);
    await step("vacuum analyze", async () => {
      // Vacuum too: a long-running database has its visibility map set, so index-only scans skip the heap.
      for (const table of ["members", "standup_runs", "run_participants", "responses", "schedules", "installations"]) {
        await database.db.execute(sql`vacuum (analyze) ${sql.identifier(table)}`);
      }
    });
    const activeBlockers = await count(
      database.db,
      sql`select count(*) as n from responses
          where team_id = ${team} and has_blocker and standup_date between ${opts.fromDate} and ${opts.toDate}`,
    );
    return {
      teamId: team,
      adminUserId: memberUserId(1),
      members,
      schedules,
      scheduleIds: imported.scheduleIds,
      runs: imported.runs,
      participants: imported.participants,
      responses: imported.responses,
      activeBlockers,
      timings,
      totalMs: performance.now() - t0,
    };
  } finally {
    if (typeof target === "string") await database.close();
  }
}
