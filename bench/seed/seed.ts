/**
 * Seed generator for the insight and export benchmarks: one workspace with `members` members and, for
 * every weekday in [fromDate, toDate], one closed standup run per schedule, a run_participants row for
 * every member of that schedule and a response for ~85% of them.
 *
 * All randomness is a hash of (seed, purpose, day, member) computed inside PostgreSQL
 * (`hashint8extended`), so the data is deterministic and independent of insertion order, and every
 * table is filled by one multi-row `INSERT … SELECT` over `generate_series` — ~1M responses in well
 * under a minute. The library function never migrates; callers (cli.ts, the benchmarks) do.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { isActiveBlocker, MOODS } from "../../src/features/standups/index.ts";
import { DEFAULT_QUESTIONS } from "../../src/features/templates/index.ts";

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
  runs: number;
  participants: number;
  responses: number;
  activeBlockers: number;
  /** Milliseconds per step, in order. */
  timings: [string, number][];
  totalMs: number;
}

const MAX_MEMBERS = 99_999;
/** Member i (1-based) has user id U + 8 digits, so ids sort like the numbers. */
export const memberUserId = (i: number): string => `U${String(i).padStart(8, "0")}`;
export const scheduleId = (teamId: string, n: number): string => `S${teamId}${n}`;

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

/** User + system CPU of a local process in ms (assumes 100 ticks/s); undefined when not readable. */
function procCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------- texts

// biome-ignore format: a word list
const FIRST_NAMES = [
  "Ada", "Alan", "Amara", "Ana", "Arjun", "Aiko", "Ben", "Bea", "Carlos", "Chen", "Chloe", "Dana", "David", "Elena",
  "Emeka", "Eva", "Farah", "Felix", "Grace", "Hana", "Hugo", "Ines", "Ivan", "Jamal", "Jin", "Julia", "Kai", "Kofi",
  "Lars", "Lea", "Leila", "Liam", "Lucia", "Maya", "Mateo", "Mei", "Nadia", "Noah", "Olga", "Omar", "Priya", "Quinn",
  "Rafael", "Rosa", "Sam", "Sara", "Tariq", "Tomas", "Uma", "Yuki", "Zoe", "Zara",
];
// biome-ignore format: a word list
const LAST_NAMES = [
  "Adeyemi", "Alvarez", "Andersen", "Bauer", "Bianchi", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Gupta",
  "Haddad", "Ito", "Jensen", "Kim", "Kowalski", "Larsen", "Lopez", "Mendes", "Meyer", "Moreau", "Nakamura", "Nguyen",
  "Novak", "Okafor", "Olsen", "Patel", "Petrov", "Quispe", "Rossi", "Sato", "Schmidt", "Silva", "Singh", "Smith",
  "Tanaka", "Torres", "Ueda", "Varga", "Wagner", "Walsh", "Wong", "Yilmaz", "Zhang",
];

// biome-ignore format: a word list
const DONE_VERBS = [
  "Finished", "Reviewed", "Merged", "Fixed", "Shipped", "Paired on", "Wrote tests for", "Refactored", "Deployed",
  "Investigated", "Documented", "Closed out", "Prototyped", "Benchmarked", "Cleaned up",
];
// biome-ignore format: a word list
const TODO_VERBS = [
  "Working on", "Continuing", "Starting", "Reviewing", "Testing", "Pairing on", "Planning", "Polishing",
  "Writing docs for", "Debugging", "Rolling out", "Designing", "Migrating", "Estimating",
];
// biome-ignore format: a word list
const OBJECTS = [
  "the billing webhook retries", "the onboarding flow", "search indexing", "the CSV export", "the mobile login screen",
  "the Postgres upgrade", "flaky CI on main", "the analytics dashboard", "the rate limiter", "invoice PDFs",
  "the Slack reminder job", "SSO for enterprise", "the public API docs", "the pricing page", "error budgets",
  "the on-call runbook", "the data retention policy", "the new design system buttons", "timezone handling",
  "the audit log", "the notifications settings page", "the import wizard", "caching for team settings",
  "the accessibility fixes", "the release checklist", "customer feedback triage", "the feature flag cleanup",
  "the Kubernetes node pool", "the weekly metrics report", "the signup funnel experiment",
];
// biome-ignore format: a word list
const NO_BLOCKERS = [
  "None", "none", "No blockers", "Nothing", "n/a", "All good", "None for now", "No blockers today", "Nope",
  "nothing blocking", ":white_check_mark:", "-", "No", "all clear",
];
// biome-ignore format: a word list
const BLOCKERS = [
  "Waiting on a review for my PR", "Blocked by flaky CI on main", "Need access to the staging database",
  "Waiting for design sign-off", "The vendor API sandbox is down", "Need a decision on the pricing tiers",
  "Waiting on legal for the DPA wording", "My laptop died, waiting for a replacement",
  "Blocked on the infra ticket for the new queue", "Need product input on the edge cases",
];

/** Cumulative mood weights: 😀 24%, 🙂 38%, 😐 20%, 😕 10%, 😫 4%, no mood 4%. */
const MOOD_WEIGHTS: [string | null, number][] = [
  [MOODS[0], 0.24],
  [MOODS[1], 0.38],
  [MOODS[2], 0.2],
  [MOODS[3], 0.1],
  [MOODS[4], 0.04],
  [null, 0.04],
];

/** The generator's has_blocker comes from which list the answer was drawn from; it must agree with the app. */
function checkBlockerLists(): void {
  const wrong = [
    ...NO_BLOCKERS.filter((t) => isActiveBlocker(t)).map((t) => `"${t}" counts as a blocker`),
    ...BLOCKERS.filter((t) => !isActiveBlocker(t)).map((t) => `"${t}" does not count as a blocker`),
  ];
  if (wrong.length > 0) throw new Error(`seed word lists disagree with isActiveBlocker: ${wrong.join("; ")}`);
}

// ---------------------------------------------------------------------------------------------- SQL

/** A float in [0, 1) from (seed, salt, key): PostgreSQL's 64-bit integer hash, stable across versions. */
function rnd(seed: number, salt: number, key: string): string {
  return `((hashint8extended((${key})::int8, ${seed * 64 + salt}) & 2147483647)::float8 / 2147483648.0)`;
}

/** One element of a text[] parameter, picked by a uniform float expression. */
function pick(param: string, length: number, u: string): string {
  return `(${param}::text[])[1 + least(floor(${u} * ${length})::int, ${length - 1})]`;
}

export async function seedWorkspace(url: string, opts: SeedOptions): Promise<SeedResult> {
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
  const answerRate = opts.answerRate ?? 0.85;
  const blockerRate = opts.blockerRate ?? 0.1;
  // Propensity is uniform in [answerRate - spread, answerRate + spread], clamped to [0, 1].
  const spread = Math.min(0.15, answerRate, 1 - answerRate);
  checkBlockerLists();
  const log = opts.log ?? (() => {});
  const team = opts.teamId;

  const client = new pg.Client({ connectionString: url });
  // A server-side termination (e.g. the cleanup's drop … with (force)) must not crash the process.
  client.on("error", () => {});
  await client.connect();
  const timings: [string, number][] = [];
  const t0 = performance.now();
  // On the same machine, the backend's CPU time shows how much of a step was work and how much waiting.
  const backendPid = Number((await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid);
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const cpu0 = procCpuMs(backendPid);
    const out = await fn();
    const ms = performance.now() - t;
    const cpu1 = procCpuMs(backendPid);
    timings.push([name, ms]);
    const cpu = cpu0 !== undefined && cpu1 !== undefined ? `, backend CPU ${((cpu1 - cpu0) / 1000).toFixed(1)} s` : "";
    log(`  ${name}: ${(ms / 1000).toFixed(1)} s${cpu}`);
    return out;
  };
  const count = async (q: string, params: unknown[] = [team]): Promise<number> =>
    Number((await client.query<{ n: string }>(q, params)).rows[0]!.n);

  try {
    await client.query("set work_mem = '256MB'");
    await client.query("set maintenance_work_mem = '512MB'");
    await client.query("begin");
    if (opts.replace) {
      await step("delete the team's rows", async () => {
        for (const table of [
          "responses",
          "run_participants",
          "standup_runs",
          "schedules",
          "sessions",
          "members",
          "workspace_calendars",
          "installations",
        ]) {
          await client.query(`delete from ${table} where team_id = $1`, [team]);
        }
      });
    } else if ((await count("select count(*) as n from installations where team_id = $1")) > 0) {
      throw new Error(
        `team ${team} already exists in this database (replace: true, or --replace on the CLI, deletes it first)`,
      );
    }

    const from = opts.fromDate;
    const to = opts.toDate;
    const createdAt = `${from}T00:00:00Z`;
    await step("installation, calendar, members, schedules", async () => {
      await client.query(
        `insert into installations (team_id, team_name, bot_user_id, bot_token_enc, scopes, installer_user_id, installed_at, updated_at)
         values ($1, $2, 'B0BENCHBOT', $3, 'chat:write,commands,im:write,users:read', $4, $5, $5)`,
        [team, `Bench ${team}`, opts.botTokenEnc ?? "bench-placeholder", memberUserId(1), createdAt],
      );
      await client.query(
        `insert into workspace_calendars (team_id, timezone, working_days, updated_at) values ($1, 'UTC', 'mon,tue,wed,thu,fri', $2)`,
        [team, createdAt],
      );
      // A temporary table of members with their index, schedule and answer propensity drives every later insert.
      await client.query("drop table if exists pg_temp.seed_members");
      await client.query(
        `create temporary table seed_members as
         select i, 'U' || lpad(i::text, 8, '0') as user_id,
                'S' || $1::text || ((i - 1) % $3 + 1) as schedule_id,
                least(1.0, greatest(0.0, $4::float8 + $5::float8 * (2 * ${rnd(seed, 1, "i")} - 1))) as propensity
         from generate_series(1, $2::int) i`,
        [team, members, schedules, answerRate, spread],
      );
      await client.query("create index on seed_members (schedule_id)");
      await client.query("analyze seed_members");
      await client.query(
        `insert into members (team_id, user_id, real_name, display_name, email, tz, active, role, created_at, updated_at)
         select $1, user_id,
                ${pick("$2", FIRST_NAMES.length, rnd(seed, 2, "i"))} || ' ' || ${pick("$3", LAST_NAMES.length, rnd(seed, 3, "i"))},
                lower(${pick("$2", FIRST_NAMES.length, rnd(seed, 2, "i"))}) || i,
                'member' || i || '@bench.example', 'UTC', true,
                case when i = 1 or i % 250 = 0 then 'admin' else 'member' end, $4, $4
         from seed_members order by i`,
        [team, FIRST_NAMES, LAST_NAMES, createdAt],
      );
      await client.query(
        `insert into schedules (id, team_id, channel_id, schedule_time, schedule_tz, schedule_days, questions, active, created_at, updated_at)
         select 'S' || $1::text || n, $1, 'C0BENCH' || n, '09:00', 'UTC', 'mon,tue,wed,thu,fri', $3::jsonb, true, $4, $4
         from generate_series(1, $2::int) n`,
        [team, schedules, JSON.stringify(DEFAULT_QUESTIONS), createdAt],
      );
    });

    // Bulk load: secondary indexes of the two big tables are dropped and rebuilt after the inserts (a sorted
    // build is many times faster than row-by-row maintenance, the GIN index most of all), inside the
    // transaction, unless the tables already hold more rows than this seed adds (rebuilding would cost more).
    const expected = members * weekdaysBetween(from, to);
    const existing = await count(
      "select coalesce(sum(greatest(reltuples, 0)), 0)::bigint as n from pg_class where relname in ('responses', 'run_participants') and relnamespace = current_schema()::regnamespace",
      [],
    );
    const dropped = await step("drop secondary indexes", async () => {
      if (existing > expected) return [];
      const res = await client.query<{ name: string; def: string }>(
        `select ic.relname as name, pg_get_indexdef(i.indexrelid) as def
         from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
         join pg_namespace n on n.oid = t.relnamespace
         where n.nspname = current_schema() and t.relname in ('responses', 'run_participants')
           and not i.indisprimary
           and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
      );
      for (const r of res.rows) await client.query(`drop index ${client.escapeIdentifier(r.name)}`);
      return res.rows;
    });

    const runs = await step("standup_runs", async () => {
      const res = await client.query(
        `insert into standup_runs (team_id, schedule_id, local_date, channel_id, questions, schedule_tz, starts_at,
                                   remind_at, closes_at, status, parent_ts, reminded_at, closed_at, created_at)
         select $1, s.id, d::date, s.channel_id, s.questions, 'UTC', st, st + interval '2 hours', st + interval '8 hours',
                'closed', extract(epoch from st)::bigint || '.000100', st + interval '2 hours', st + interval '8 hours', st
         from generate_series($2::timestamp, $3::timestamp, interval '1 day') d
         cross join lateral (select (d + time '09:00') at time zone 'UTC' as st) t
         join schedules s on s.team_id = $1
         where extract(isodow from d) < 6
         order by d, s.id`,
        [team, from, to],
      );
      return res.rowCount ?? 0;
    });

    // Day number × 100000 + member index: a distinct hash key per (day, member).
    const key = "(run.local_date - date '2000-01-01') * 100000 + m.i";
    const answered = `${rnd(seed, 4, key)} < m.propensity`;
    const participants = await step("run_participants", async () => {
      const res = await client.query(
        `insert into run_participants (run_id, user_id, team_id, status, dm_channel, created_at)
         select run.id, m.user_id, $1, case when ${answered} then 'answered' else 'asked' end, 'D' || m.user_id, run.starts_at
         from standup_runs run
         join seed_members m on m.schedule_id = run.schedule_id
         where run.team_id = $1 and run.local_date between $2 and $3
         order by run.id, m.i`,
        [team, from, to],
      );
      return res.rowCount ?? 0;
    });

    let cumulative = 0;
    const moodCase = MOOD_WEIGHTS.map(([mood, w]) => {
      cumulative += w;
      return `when u.mood < ${cumulative.toFixed(4)} then ${mood === null ? "null" : `'${mood}'`}`;
    }).join(" ");
    const responses = await step("responses", async () => {
      const res = await client.query(
        `insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, yesterday, today, blockers,
                                mood, has_blocker, submitted_at)
         select $1, run.schedule_id, run.id, m.user_id, run.local_date,
                jsonb_build_array(t.yesterday, t.today, t.blockers), t.yesterday, t.today, t.blockers,
                case ${moodCase} else null end, u.blocker < $8::float8,
                run.starts_at + make_interval(secs => 300 + floor(u.delay * 14100))
         from standup_runs run
         join seed_members m on m.schedule_id = run.schedule_id
         cross join lateral (select ${rnd(seed, 5, key)} as mood, ${rnd(seed, 6, key)} as blocker,
                                    ${rnd(seed, 7, key)} as delay, ${rnd(seed, 8, key)} as ticket) u
         cross join lateral (select
             ${pick("$4", DONE_VERBS.length, rnd(seed, 9, key))} || ' ' || ${pick("$6", OBJECTS.length, rnd(seed, 10, key))}
               || case when u.ticket < 0.3 then ' (UP-' || (1000 + floor(u.ticket * 30000))::int || ')' else '' end as yesterday,
             ${pick("$5", TODO_VERBS.length, rnd(seed, 11, key))} || ' ' || ${pick("$6", OBJECTS.length, rnd(seed, 12, key))} as today,
             case when u.blocker < $8::float8 then ${pick("$7", BLOCKERS.length, rnd(seed, 13, key))}
                  else ${pick("$9", NO_BLOCKERS.length, rnd(seed, 14, key))} end as blockers) t
         where run.team_id = $1 and run.local_date between $2 and $3 and ${answered}
         order by run.local_date, run.starts_at + make_interval(secs => 300 + floor(u.delay * 14100)), m.i`,
        [team, from, to, DONE_VERBS, TODO_VERBS, OBJECTS, BLOCKERS, blockerRate, NO_BLOCKERS],
      );
      return res.rowCount ?? 0;
    });
    await step(`rebuild ${dropped.length} indexes`, async () => {
      for (const r of dropped) await client.query(r.def);
    });
    await step("commit", () => client.query("commit"));
    await step("vacuum analyze", async () => {
      // Vacuum too: a long-running database has its visibility map set, so index-only scans skip the heap.
      for (const table of ["members", "standup_runs", "run_participants", "responses", "schedules", "installations"]) {
        await client.query(`vacuum (analyze) ${table}`);
      }
    });
    const activeBlockers = await count(
      "select count(*) as n from responses where team_id = $1 and has_blocker and standup_date between $2 and $3",
      [team, from, to],
    );
    return {
      teamId: team,
      adminUserId: memberUserId(1),
      members,
      schedules,
      runs,
      participants,
      responses,
      activeBlockers,
      timings,
      totalMs: performance.now() - t0,
    };
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}
