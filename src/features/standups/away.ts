import { sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { DEFAULT_MAX_LATE_MINUTES } from "../schedules/index.ts";
import { awayOnSql } from "../time-off/index.ts";
import type { RunRow } from "./runs.repo.ts";

/**
 * Time off in standups: a member away on a run's date (the run's local date: the schedule's date, or the member's own
 * in a member-timezone run) is a participant with status `away`: never asked nor reminded, left out of participation
 * and streaks, and named as away in the summary and the overview. The status is set when the run plans its
 * participants, checked again right before each ask and reminder (a range set meanwhile), and brought in line with
 * every change of the member's time off while the run is open (the `time-off.changed` subscriber): one who sets time
 * off after being asked is not reminded and counts as away (unless they answered); one who comes back, or removes the
 * range, before the run ends is asked after all (a member-timezone participant at their own time).
 */

/**
 * Whether the participant is away in this run, marking them `away` first when they are on time off on its date and
 * were only pending or asked. One update and one read.
 */
export async function awayInRun(ex: Executor, run: RunRow, userId: string): Promise<boolean> {
  await ex.execute(
    sql`update run_participants p set status = 'away'
        where p.run_id = ${run.id} and p.user_id = ${userId} and p.status in ('pending', 'asked')
          and ${awayOnSql(sql`${run.teamId}`, sql`${userId}`, sql`${run.localDate}::date`)}`,
  );
  const [row] = await rows<{ status: string }>(
    ex,
    sql`select status from run_participants where run_id = ${run.id} and user_id = ${userId}`,
  );
  return row?.status === "away";
}

/** Subscribes to `time-off.changed`: the member's part in the workspace's open runs follows their time off. */
export function standupTimeOffSubscriber(deps: Deps): void {
  deps.events.on("time-off.changed", async (tx, event) => {
    const { teamId } = event;
    const { userId } = event.data;
    const now = event.at.toISOString();
    const away = awayOnSql(sql`run.team_id`, sql`p.user_id`, sql`run.local_date`);
    // Now away on the run's date: no ask (not sent yet), no reminder, not counted.
    await tx.execute(
      sql`update run_participants p set status = 'away'
          from standup_runs run
          where run.id = p.run_id and run.team_id = ${teamId} and run.status = 'open'
            and p.team_id = ${teamId} and p.user_id = ${userId} and p.status in ('pending', 'asked') and ${away}`,
    );
    // No longer away: asked after all while their window is open and their ask is not past the catch-up window.
    const back = await rows<{ runId: string; status: string }>(
      tx,
      sql`update run_participants p
          set status = case when p.ask_at > ${now}::timestamptz then 'pending' else 'asked' end
          from standup_runs run
          where run.id = p.run_id and run.team_id = ${teamId} and run.status = 'open'
            and p.team_id = ${teamId} and p.user_id = ${userId} and p.status = 'away' and not ${away}
            and coalesce(p.closes_at, run.closes_at) > ${now}::timestamptz
            and (p.ask_at is null
                 or p.ask_at > ${now}::timestamptz - make_interval(mins => ${DEFAULT_MAX_LATE_MINUTES}))
          returning p.run_id::text as "runId", p.status`,
    );
    for (const b of back) {
      if (b.status !== "asked") continue;
      await deps.queue.enqueue("standup.ask", { teamId, runId: Number(b.runId), userId }, { tx });
    }
  });
}
