import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { type Executor, rows } from "../../db/client.ts";
import { blockerAgeDays, liveBlockerSql } from "./blocker-items.ts";
import type { SummaryInput } from "./messages.ts";
import type { ResponseRow } from "./responses.repo.ts";
import type { RunRow } from "./runs.repo.ts";

/** More than a summary can list anyway (it says "…and N more" past its text budget). */
const MAX_LISTED = 500;

interface Row {
  userId: string;
  text: string;
  status: "open" | "resolved";
  openedDate: string;
  /** False for an open item of a member who left (or of a deleted standup): counted by no one, so not listed. */
  live: boolean;
}

export interface SummaryBlockers {
  /** Whose names the summary needs. */
  userIds: string[];
  forSummary(
    answers: Pick<ResponseRow, "userId" | "hasBlocker" | "blockers">[],
    nameOf: (userId: string) => string,
  ): Pick<SummaryInput, "blockers" | "resolvedToday">;
}

/**
 * The close summary's blockers: every open item of the standup (not only today's answers), oldest first with its age
 * on the run's date, and the items resolved on that date (in the standup's zone). Open items of members who left are
 * not listed, as on the Blockers page. A blocker answer with no item
 * (a standup without a blocker question tracks none) is still listed, as before items existed.
 */
export async function summaryBlockers(
  ex: Executor,
  run: Pick<RunRow, "teamId" | "scheduleId" | "localDate" | "scheduleTz">,
): Promise<SummaryBlockers> {
  const day = DateTime.fromISO(run.localDate, { zone: run.scheduleTz }).startOf("day");
  const found = await rows<Row>(
    ex,
    sql`select user_id as "userId", text, status, opened_date::text as "openedDate", ${liveBlockerSql("blockers")} as live
        from blockers
        where team_id = ${run.teamId} and schedule_id = ${run.scheduleId}
          and (status = 'open' or (resolved_at >= ${day.toUTC().toISO()}::timestamptz
            and resolved_at < ${day.plus({ days: 1 }).toUTC().toISO()}::timestamptz))
        order by opened_date, id
        limit ${MAX_LISTED}`,
  );
  return {
    userIds: [...new Set(found.filter((r) => r.live || r.status === "resolved").map((r) => r.userId))],
    forSummary(answers, nameOf) {
      // A member whose item is not live is still tracked: their answer is not listed as an untracked blocker either.
      const tracked = new Set(found.map((r) => r.userId));
      const open = found
        .filter((r) => r.status === "open" && r.live)
        .map((r) => ({ name: nameOf(r.userId), text: r.text, ageDays: blockerAgeDays(r.openedDate, run.localDate) }));
      const untracked = answers
        .filter((a) => a.hasBlocker && !tracked.has(a.userId))
        .map((a) => ({ name: nameOf(a.userId), text: a.blockers }));
      const resolvedToday = found
        .filter((r) => r.status === "resolved")
        .map((r) => ({ name: nameOf(r.userId), text: r.text }));
      return { blockers: [...open, ...untracked], resolvedToday };
    },
  };
}
