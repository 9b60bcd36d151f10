import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { standupRuns } from "../../db/schema.ts";
import type { NewRun } from "./runs.repo.ts";

/**
 * Run now on a day the scheduler skipped (the service was down past the catch-up window): the skipped row becomes
 * today's run, opened as `run`. One statement from `skipped` to `open`: of two presses or two instances, only one
 * gets the id back. A skipped run never asked anyone (no participants, no posts), so nothing of it carries over.
 */
export async function reviveSkippedRun(ex: Executor, run: NewRun): Promise<number | undefined> {
  const [row] = await ex
    .update(standupRuns)
    .set({
      channelId: run.channelId,
      questions: run.questions,
      ...(run.blockerQuestion !== undefined ? { blockerQuestion: run.blockerQuestion } : {}),
      trigger: run.trigger ?? "manual",
      memberTimezone: run.memberTimezone ?? false,
      scheduleTz: run.scheduleTz,
      startsAt: run.startsAt,
      remindAt: run.remindAt,
      closesAt: run.closesAt,
      status: "open",
      parentTs: null,
      remindedAt: null,
      closedAt: null,
    })
    .where(
      and(
        eq(standupRuns.teamId, run.teamId),
        eq(standupRuns.scheduleId, run.scheduleId),
        eq(standupRuns.localDate, run.localDate),
        eq(standupRuns.status, "skipped"),
      ),
    )
    .returning({ id: standupRuns.id });
  return row?.id;
}
