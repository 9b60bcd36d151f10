import { sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import type { ParticipantStatus } from "../../db/schema.ts";
import { DEFAULT_MAX_LATE_MINUTES } from "../schedules/index.ts";

/** A schedule's latest run and where one member stands in it. */
export interface LatestRunForMember {
  scheduleId: string;
  localDate: string;
  /** Null when the run did not include the member. */
  status: ParticipantStatus | null;
  /**
   * `pending` and still to be asked at their own time. Otherwise a pending member is not asked on this date: their
   * time passed beyond the catch-up window, or their ask ended when the run was stopped.
   */
  asksLater: boolean;
  answered: boolean;
}

/**
 * The latest run of each live schedule of the workspace and the member's part in it, in one statement (a lateral
 * lookup per schedule walks the (schedule_id, local_date) unique index backwards and stops at the first row).
 */
export async function latestRunsForMember(
  ex: Executor,
  teamId: string,
  userId: string,
  now: Date,
): Promise<LatestRunForMember[]> {
  return rows<LatestRunForMember>(
    ex,
    sql`select s.id as "scheduleId", last.local_date::text as "localDate", p.status,
               coalesce(p.status = 'pending'
                 and p.ask_at > ${now.toISOString()}::timestamptz - make_interval(mins => ${DEFAULT_MAX_LATE_MINUTES}), false)
                 as "asksLater",
               (resp.id is not null) as answered
        from schedules s
        cross join lateral (
          select run.id, run.local_date from standup_runs run
          where run.schedule_id = s.id and run.team_id = s.team_id
          order by run.local_date desc
          limit 1
        ) last
        left join run_participants p on p.run_id = last.id and p.user_id = ${userId}
        left join responses resp on resp.run_id = last.id and resp.user_id = ${userId}
        where s.team_id = ${teamId} and s.deleted_at is null`,
  );
}
