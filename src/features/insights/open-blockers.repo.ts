import { type SQL, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { personNameSql } from "../../lib/person-names.ts";
import type { Filters } from "./filters.repo.ts";

/**
 * "Active blockers" (issue 25): open blocker items of active members in standups that still exist, as a scalar
 * subquery. The Blockers page lists the same items (blockers.repo.ts's rule). With a window, only the items open
 * during it: first reported on or before its end and reported (or confirmed) again on or after its start.
 */
export function openBlockerCount(teamId: string, f: Filters, window?: { from: string; to: string }): SQL {
  return sql`(select count(*)::int from blockers b
     join schedules bs on bs.team_id = b.team_id and bs.id = b.schedule_id and bs.deleted_at is null
     join members bm on bm.team_id = b.team_id and bm.user_id = b.user_id and bm.active
     where b.team_id = ${teamId} and b.status = 'open'
       ${f.scheduleId ? sql`and b.schedule_id = ${f.scheduleId}` : sql``}
       ${f.userId ? sql`and b.user_id = ${f.userId}` : sql``}
       ${window ? sql`and b.opened_date <= ${window.to}::date and b.last_date >= ${window.from}::date` : sql``})`;
}

/**
 * The open blocker items the count above counts for a window, newest report first: who, the standup date it was last
 * reported and its text (the weekly digest lists them).
 */
export function openBlockersIn(ex: Executor, teamId: string, from: string, to: string, f: Filters = {}) {
  return rows<{ user_id: string; real_name: string; standup_date: string; blockers: string }>(
    ex,
    sql`select b.user_id, ${sql.raw(personNameSql("bm"))} as real_name, b.last_date::text as standup_date,
          b.text as blockers
        from blockers b
        join schedules bs on bs.team_id = b.team_id and bs.id = b.schedule_id and bs.deleted_at is null
        join members bm on bm.team_id = b.team_id and bm.user_id = b.user_id and bm.active
        where b.team_id = ${teamId} and b.status = 'open'
          ${f.scheduleId ? sql`and b.schedule_id = ${f.scheduleId}` : sql``}
          ${f.userId ? sql`and b.user_id = ${f.userId}` : sql``}
          and b.opened_date <= ${to}::date and b.last_date >= ${from}::date
        order by b.last_date desc, real_name, b.id`,
  );
}
