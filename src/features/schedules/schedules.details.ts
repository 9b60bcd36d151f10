import { DateTime } from "luxon";
import type { Schedule } from "../../contract/index.ts";
import { questionDetailsOf } from "../../contract/questions.ts";
import type { Deps } from "../../deps.ts";
import { holidaysBetween, shiftDate } from "../calendar/index.ts";
import { channelDirectory, withinDeadline } from "../channels/index.ts";
import { activeMemberIds } from "../members/index.ts";
import { UNKNOWN_CHANNEL_STANDUP } from "./names.ts";
import { type LastRunRow, type ScheduleRow, selectLastRuns } from "./schedules.repo.ts";
import { nextRunAfter, parseDays } from "./timing.ts";

/**
 * The schedule object as the API shows it: the stored fields plus what a team lead reads off the list (the name,
 * the next run, the last run, the participant count). A fixed number of queries however many schedules there
 * are; Slack is asked once per channel at most (cached a minute), and never waited on for more than a moment.
 */

export type ScheduleView = Schedule;
type DetailDeps = Pick<Deps, "db" | "clock" | "chat">;

/** How long a page waits for Slack's channel names and members before showing its fallbacks. */
const SLACK_WAIT_MS = 3_000;
/** Far enough to find the next run of a weekly schedule behind a long run of holidays. */
const NEXT_RUN_HORIZON_DAYS = 366;

/** "#general standup"; while the channel's name is unknown, words rather than its id (the list shows it once known). */
export function defaultName(channelName: string | undefined, _channelId: string): string {
  return channelName ? `#${channelName} standup` : UNKNOWN_CHANNEL_STANDUP;
}

/**
 * When the next run starts: the first listed weekday that is not a holiday, after now and after the last change
 * of timing, on a date that has no run yet (after Run now, today's scheduled time does not run again).
 */
export function nextRunOf(
  row: Pick<ScheduleRow, "active" | "scheduleTime" | "scheduleTz" | "scheduleDays" | "timingChangedAt">,
  now: Date,
  holidays: ReadonlySet<string> | undefined,
  lastRunDate: string | null,
): Date | null {
  const days = parseDays(row.scheduleDays);
  if (!row.active || !days) return null;
  const from = row.timingChangedAt && row.timingChangedAt > now ? row.timingChangedAt : now;
  const next = nextRunAfter(
    { time: row.scheduleTime, tz: row.scheduleTz, days },
    DateTime.fromJSDate(from, { zone: "utc" }),
    (date) => (holidays?.has(date) ?? false) || (lastRunDate !== null && date <= lastRunDate),
    NEXT_RUN_HORIZON_DAYS,
  );
  return next ? next.startsAt.toJSDate() : null;
}

/** Channel id → active members in it now, for the channels Slack answered about in time. */
export async function participantsByChannel(
  deps: DetailDeps,
  teamId: string,
  channelIds: string[],
): Promise<Map<string, string[]>> {
  const directory = channelDirectory(deps);
  const unique = [...new Set(channelIds)];
  const listed = await Promise.all(
    unique.map(async (id) => [id, await withinDeadline(directory.members(teamId, id), SLACK_WAIT_MS)] as const),
  );
  const everyone = [...new Set(listed.flatMap(([, ids]) => ids ?? []))];
  const active = new Set(await activeMemberIds(deps, teamId, everyone));
  const out = new Map<string, string[]>();
  for (const [id, ids] of listed)
    if (ids)
      out.set(
        id,
        ids.filter((u) => active.has(u)),
      );
  return out;
}

/** Channel id → name from the channels feature's cached directory, or an empty map when Slack is slow or down. */
export async function channelNames(deps: DetailDeps, teamId: string): Promise<Map<string, string>> {
  const list = await channelDirectory(deps).listOrNothing(teamId, SLACK_WAIT_MS);
  return new Map((list ?? []).map((c) => [c.id, c.name]));
}

/** The API objects of these schedules of one workspace, in the order given. */
export async function presentSchedules(deps: DetailDeps, teamId: string, list: ScheduleRow[]): Promise<ScheduleView[]> {
  if (list.length === 0) return [];
  const now = deps.clock.now();
  const today = DateTime.fromJSDate(now, { zone: "utc" }).toISODate()!;
  const [lastRuns, holidays, names, participants] = await Promise.all([
    selectLastRuns(deps.db, teamId, now),
    holidaysBetween(deps, [teamId], shiftDate(today, -1), shiftDate(today, NEXT_RUN_HORIZON_DAYS + 1), "standups"),
    list.some((s) => s.name === "") ? channelNames(deps, teamId) : new Map<string, string>(),
    participantsByChannel(
      deps,
      teamId,
      list.map((s) => s.channelId),
    ),
  ]);
  const lastBySchedule = new Map<string, LastRunRow>(lastRuns.map((r) => [r.scheduleId, r]));
  return list.map((row) => {
    const last = lastBySchedule.get(row.id);
    const next = nextRunOf(row, now, holidays.get(teamId), last?.localDate ?? null);
    return {
      id: row.id,
      channel_id: row.channelId,
      schedule_time: row.scheduleTime,
      schedule_tz: row.scheduleTz,
      schedule_days: row.scheduleDays,
      questions: [...row.questions],
      question_details: questionDetailsOf(row.questions, row.questionDetails),
      answer_early_hours: row.answerEarlyHours,
      active: row.active,
      name: row.name || defaultName(names.get(row.channelId), row.channelId),
      blocker_question: row.blockerQuestion,
      reminder_minutes: row.reminderMinutes,
      ask_in_member_timezone: row.askInMemberTimezone,
      kudos_field: row.kudosField,
      ai_summary: row.aiSummary,
      next_run_at: next ? next.toISOString() : null,
      last_run: last
        ? {
            local_date: last.localDate,
            status: last.status,
            trigger: last.trigger,
            asked: last.asked,
            answered: last.answered,
            asked_later: last.askedLater,
            away: last.away,
          }
        : null,
      participant_count: participants.get(row.channelId)?.length ?? last?.asked ?? 0,
    };
  });
}
