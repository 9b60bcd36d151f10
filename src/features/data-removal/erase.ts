import { type SQL, sql } from "drizzle-orm";
import { pgArray } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import {
  MENTION_REPLACEMENT,
  type Person,
  type PersonalData,
  type PersonalDataPlace,
  type PersonalJob,
} from "../../lib/personal-data.ts";
import { PERSONAL_DATA } from "./personal-data.registry.ts";

/**
 * The one mechanism behind both deletions: a member's data is erased place by place as the registry declares it;
 * a workspace's is every row of every team_id table (which holds every registered place) and every job naming it.
 */

async function affected(ex: Executor, query: SQL): Promise<number> {
  const res = (await ex.execute(query)) as unknown as { rowCount?: number | null; affectedRows?: number };
  return Number(res.rowCount ?? res.affectedRows ?? 0);
}

/** Every table of this database with a team_id column, read from the live schema (a new table needs no change). */
export async function teamTables(ex: Executor): Promise<string[]> {
  const found = await rows<{ table_name: string }>(
    ex,
    sql`select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and c.column_name = 'team_id' and t.table_type = 'BASE TABLE'
        order by c.table_name`,
  );
  return found.map((r) => r.table_name);
}

const likeEscape = (value: string) => value.replace(/[\\%_]/g, "\\$&");
const regexEscape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Any of the patterns, as one condition on `target` (one array parameter however many patterns). */
function likeAny(target: SQL | ReturnType<typeof sql.identifier>, patterns: string[]): SQL {
  return sql`${target} like any(${pgArray("text", patterns)})`;
}

/** The statement that erases one person from one place; a row count comes back from each. */
function placeStatement(place: PersonalDataPlace, person: Person): SQL {
  const { team: teamId, user: userId } = person;
  const likeUser = likeEscape(userId);
  const table = sql.identifier(place.table);
  const column = sql.identifier(place.column);
  const inTeam = sql`team_id = ${teamId}`;
  switch (place.kind) {
    case "rows":
      return sql`delete from ${table} where ${inTeam} and ${column} = ${userId}${place.where ? sql` and (${place.where})` : sql``}`;
    case "redact":
      return sql`update ${table} set ${column} = '' where ${inTeam} and ${column} = ${userId}`;
    case "array":
      return place.type === "jsonb"
        ? sql`update ${table} set ${column} = ${column} - ${userId}::text
              where ${inTeam} and ${column} @> jsonb_build_array(${userId}::text)`
        : sql`update ${table} set ${column} = array_remove(${column}, ${userId}::text)
              where ${inTeam} and ${userId}::text = any(${column})`;
    case "json": {
      const doc = place.type === "jsonb" ? sql`${column}` : sql`${column}::jsonb`;
      const named = sql.join(
        place.paths.map(
          (path) =>
            sql`jsonb_path_exists(${doc}, ${`${path} ? (@ == $u)`}::jsonpath, jsonb_build_object('u', ${userId}::text))`,
        ),
        sql` or `,
      );
      // The text match first: only documents that contain the id at all are parsed.
      return sql`delete from ${table} where ${inTeam} and ${column} is not null
                 and case when ${column}::text like ${`%${likeUser}%`} then (${named}) else false end`;
    }
    case "key":
      return sql`delete from ${table} where ${inTeam} and (${likeAny(column, place.patterns(person))})`;
    case "mention": {
      // <@U123> or <@U123|name>: Slack's mention syntax, in text or inside a JSON string (no JSON escaping needed).
      const pattern = `<@${regexEscape(userId)}(\\|[^>]*)?>`;
      const rewritten = sql`regexp_replace(${column}::text, ${pattern}, ${MENTION_REPLACEMENT}, 'g')`;
      return sql`update ${table} set ${column} = ${place.type === "jsonb" ? sql`${rewritten}::jsonb` : rewritten}
                 where ${inTeam} and ${column}::text like ${`%<@${likeUser}%`}
                   and ${column}::text ~ ${pattern}`;
    }
    case "clear":
      return sql`update ${table} set ${column} = null, ${place.set}
                 where ${inTeam}${place.where ? sql` and (${place.where})` : sql``}`;
  }
}

/** True when pg-boss's job table exists (the queue creates it when it starts). */
async function hasJobTable(ex: Executor): Promise<boolean> {
  const [present] = await rows<{ ok: boolean }>(ex, sql`select to_regclass('pgboss.job') is not null as ok`);
  return Boolean(present?.ok);
}

function jobCondition(job: PersonalJob, person: Person): SQL {
  const value = sql`data->>${job.field}`;
  const match = job.patterns ? likeAny(value, job.patterns(person)) : sql`${value} = ${person.user}`;
  return sql`(name = ${job.queue} and (${match}))`;
}

export interface PersonErasure {
  /** Rows deleted, by table. */
  deleted: Record<string, number>;
  /** Rows whose value was redacted, taken out of an array or rewritten, by `table.column`. */
  changed: Record<string, number>;
  /** Jobs naming them that were dropped. */
  jobs: number;
}

/**
 * Erases one member from every place the registry lists, in the caller's transaction. Running jobs are left alone
 * (their handlers find the rows gone); every other job naming the member goes, finished ones included (pg-boss
 * keeps those a week, payload and all).
 */
export async function erasePerson(
  ex: Executor,
  teamId: string,
  userId: string,
  registry: readonly PersonalData[] = PERSONAL_DATA,
): Promise<PersonErasure> {
  const person: Person = { team: teamId, user: userId };
  const out: PersonErasure = { deleted: {}, changed: {}, jobs: 0 };
  for (const place of registry.flatMap((f) => f.places)) {
    const n = await affected(ex, placeStatement(place, person));
    const deletes = place.kind === "rows" || place.kind === "json" || place.kind === "key";
    const tally = deletes ? out.deleted : out.changed;
    const name = deletes ? place.table : `${place.table}.${place.column}`;
    tally[name] = (tally[name] ?? 0) + n;
  }
  const all = registry.flatMap((f) => f.jobs ?? []);
  const jobs = all.filter((j) => !j.inList);
  const lists = all.filter((j) => j.inList);
  if (lists.length > 0 && (await hasJobTable(ex))) {
    for (const job of lists) {
      out.jobs += await affected(
        ex,
        sql`update pgboss.job set data = jsonb_set(data, array[${job.field}::text], (data -> ${job.field}::text) - ${userId}::text)
            where data->>'teamId' = ${teamId} and state <> 'active' and name = ${job.queue}
              and (data -> ${job.field}::text) @> to_jsonb(${userId}::text)`,
      );
    }
  }
  if (jobs.length > 0 && (await hasJobTable(ex))) {
    out.jobs += await affected(
      ex,
      sql`delete from pgboss.job where data->>'teamId' = ${teamId} and state <> 'active'
          and (${sql.join(
            jobs.map((job) => jobCondition(job, person)),
            sql` or `,
          )})`,
    );
  }
  return out;
}

export interface WorkspaceErasure {
  rows: number;
  /** Jobs that were still to run (queued or waiting for a retry). */
  jobs: number;
}

/**
 * Erases a workspace, in the caller's transaction: every row of every team_id table (every place of the registry
 * is in one, as the registry test checks), and every job whose payload names the workspace that is not running.
 */
export async function eraseWorkspace(ex: Executor, teamId: string): Promise<WorkspaceErasure> {
  let total = 0;
  // The participants go before the answers: the answers' delete trigger (migration 0035) then has no participant
  // row left to update.
  const tables = await teamTables(ex);
  const ordered = [
    ...tables.filter((t) => t === "run_participants"),
    ...tables.filter((t) => t !== "run_participants"),
  ];
  for (const table of ordered) {
    total += await affected(ex, sql`delete from ${sql.identifier(table)} where team_id = ${teamId}`);
  }
  if (!(await hasJobTable(ex))) return { rows: total, jobs: 0 };
  const dropped = await rows<{ state: string }>(
    ex,
    sql`delete from pgboss.job where data->>'teamId' = ${teamId} and state <> 'active' returning state`,
  );
  return { rows: total, jobs: dropped.filter((j) => j.state === "created" || j.state === "retry").length };
}
