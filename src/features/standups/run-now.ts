import type { RunStarted } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { conflict } from "../../http/errors.ts";
import { findSchedule, localDateOf, participantsByChannel } from "../schedules/index.ts";
import { selectAwayOn } from "../time-off/index.ts";
import { reviveSkippedRun } from "./run-now.repo.ts";
import { remindAtFor } from "./run-rules.ts";
import { claimRun } from "./runs.repo.ts";
import { closesAtFor } from "./scheduler.ts";

/**
 * Run now: starts today's run of a schedule on purpose, with the scheduler's exactly-once claim on
 * (schedule_id, local_date). Today is the schedule's local date; whoever claims it first (this button, a second
 * press, another instance, or the scheduled time) runs it and everyone else gets 409, so the scheduled time the
 * same day does not run again. A day the scheduler skipped for downtime is no claim: Run now revives it, once.
 * Everyone is asked at once, also on a member-timezone schedule, a weekend or a holiday: pressing the button is the
 * decision.
 */
export async function runNow(deps: Deps, teamId: string, scheduleId: string): Promise<RunStarted> {
  const s = await findSchedule(deps, teamId, scheduleId);
  if (!s.active) throw conflict("This standup is paused: resume it before running it now");
  const now = deps.clock.now();
  const localDate = localDateOf(now, s.scheduleTz);
  const runId = await deps.db.transaction(async (tx) => {
    const run = {
      teamId,
      scheduleId: s.id,
      localDate,
      channelId: s.channelId,
      questions: s.questions,
      questionDetails: s.questionDetails,
      blockerQuestion: s.blockerQuestion,
      trigger: "manual" as const,
      memberTimezone: false,
      scheduleTz: s.scheduleTz,
      startsAt: now,
      remindAt: remindAtFor(now, s.reminderMinutes),
      closesAt: closesAtFor(localDate, s.scheduleTz, now),
      status: "open" as const,
      createdAt: now,
    };
    // A day skipped for downtime runs now all the same: its skipped row is revived, once.
    const id = (await claimRun(tx, run)) ?? (await reviveSkippedRun(tx, run));
    if (id !== undefined) await deps.queue.enqueue("standup.fanout", { teamId, runId: id }, { tx });
    return id;
  });
  if (runId !== undefined) deps.metrics.runsStarted.inc({ trigger: "manual" });
  if (runId === undefined) {
    throw conflict(`Today's run of this standup (${localDate}) already exists: a standup runs at most once a day`);
  }
  const people = (await participantsByChannel(deps, teamId, [s.channelId])).get(s.channelId) ?? [];
  // Those away today are not asked (the fan-out leaves them out too).
  const away = await selectAwayOn(deps.db, teamId, people, localDate);
  deps.log.info({ team_id: teamId, schedule_id: s.id, run_id: runId, local_date: localDate }, "standup run now");
  return {
    run_id: runId,
    schedule_id: s.id,
    local_date: localDate,
    trigger: "manual",
    asked: people.filter((u) => !away.has(u)).length,
  };
}
