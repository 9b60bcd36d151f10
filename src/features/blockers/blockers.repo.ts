import { type SQL, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { personNameSql } from "../../lib/person-names.ts";

/** What the list, the CSV and MCP filter by; `status` all: open items first, then resolved ones. */
export interface BlockerFilters {
  status: "open" | "resolved" | "all";
  scheduleId?: string | undefined;
  userId?: string | undefined;
  /** Only items reported on or after this standup date (MCP's window). */
  reportedSince?: string | undefined;
  /** Only this item. */
  id?: number | undefined;
}

/** A blocker item as the queries read it; `schedule_name` '' means the standup has the default name. */
export interface BlockerRow {
  id: number;
  schedule_id: string;
  schedule_name: string;
  channel_id: string;
  user_id: string;
  real_name: string;
  text: string;
  status: "open" | "resolved";
  opened_date: string;
  opened_at: string;
  age_days: number;
  last_date: string;
  resolved_at: string | null;
  resolved_by: string | null;
  resolved_by_name: string | null;
  resolution_note: string | null;
  resolved_via: string | null;
}

const UTC_ISO = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`);

/**
 * Which open items count: those of active members in standups that still exist. A deleted standup or a member who
 * left keeps its history (resolved items stay listed) but no longer has anyone blocked. The same rule as the
 * `active_blockers` figure (insights' openBlockerCount), so the page and the figure always agree.
 */
const LIVE = sql`(b.status <> 'open' or (s.id is not null and s.deleted_at is null and coalesce(m.active, false)))`;

function where(teamId: string, f: BlockerFilters): SQL {
  return sql`b.team_id = ${teamId} and ${LIVE}
    ${f.status === "all" ? sql`` : sql`and b.status = ${f.status}`}
    ${f.scheduleId ? sql`and b.schedule_id = ${f.scheduleId}` : sql``}
    ${f.userId ? sql`and b.user_id = ${f.userId}` : sql``}
    ${f.reportedSince ? sql`and b.last_date >= ${f.reportedSince}::date` : sql``}
    ${f.id !== undefined ? sql`and b.id = ${f.id}` : sql``}`;
}

const JOINS = sql`left join schedules s on s.team_id = b.team_id and s.id = b.schedule_id
  left join members m on m.team_id = b.team_id and m.user_id = b.user_id
  left join members rm on rm.team_id = b.team_id and rm.user_id = b.resolved_by`;

/**
 * A page of items: open ones first, the longest open first; then resolved ones, the latest resolved first. Age is in
 * the standup's own timezone: days from the first report to its local date today (to the day it was resolved).
 */
export function blockerRows(
  ex: Executor,
  teamId: string,
  f: BlockerFilters,
  now: Date,
  page: { limit: number; offset: number },
): Promise<BlockerRow[]> {
  return rows<BlockerRow>(
    ex,
    sql`select b.id::int as id, b.schedule_id, coalesce(s.name, '') as schedule_name, coalesce(s.channel_id, '') as channel_id,
          b.user_id, ${sql.raw(personNameSql("m"))} as real_name, b.text, b.status,
          b.opened_date::text as opened_date, ${UTC_ISO("b.opened_at")} as opened_at,
          greatest(0, (case when b.status = 'open'
                             then (${now.toISOString()}::timestamptz at time zone coalesce(s.schedule_tz, 'UTC'))::date
                             else (b.resolved_at at time zone coalesce(s.schedule_tz, 'UTC'))::date end
                       - b.opened_date))::int as age_days,
          b.last_date::text as last_date,
          case when b.resolved_at is null then null else ${UTC_ISO("b.resolved_at")} end as resolved_at,
          b.resolved_by,
          case when b.resolved_by is null then null else ${sql.raw(personNameSql("rm"))} end as resolved_by_name,
          b.resolution_note, b.resolved_via
        from blockers b
        ${JOINS}
        where ${where(teamId, f)}
        order by (b.status <> 'open'), case when b.status = 'open' then b.opened_date end,
          case when b.status = 'open' then b.opened_at end, b.resolved_at desc nulls last, b.id
        limit ${page.limit} offset ${page.offset}`,
  );
}

export async function blockerCount(ex: Executor, teamId: string, f: BlockerFilters): Promise<number> {
  const [row] = await rows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from blockers b ${JOINS} where ${where(teamId, f)}`,
  );
  return row?.n ?? 0;
}
