import { DateTime, IANAZone } from "luxon";
import type { Deps } from "../../deps.ts";
import { shiftDate } from "../calendar/index.ts";
import { DEFAULT_MAX_LATE_MINUTES, localDateOf, runStartFor, WEEKDAYS, type Weekday } from "../schedules/index.ts";
import { claimDueAsks } from "./participants.repo.ts";
import { claimDueReminders, markRunsReminded } from "./reminders.repo.ts";

/**
 * Member-timezone standups (`ask_in_member_timezone`): one run per (schedule, date) and one channel thread,
 * but each participant is asked at the schedule's time on that date in their own Slack timezone. The run
 * is claimed when the date's schedule time arrives in the earliest zone on Earth, which is never later than
 * anyone's ask; its fan-out plans every participant (`run_participants.ask_at`, `remind_at`, `closes_at`,
 * status `pending`), and each scheduler tick asks and reminds those whose own time has come.
 */

/** UTC+14 (Kiribati's Line Islands): a date's wall time arrives here first. POSIX signs: Etc/GMT-14 is ahead of UTC. */
export const EARLIEST_ZONE = "Etc/GMT-14";

const MINUTE_MS = 60_000;
const MAX_LATE_MS = DEFAULT_MAX_LATE_MINUTES * MINUTE_MS;
/**
 * A reminder is only sent while the member's window is open, and a window ends at most about a day after
 * the ask (end of the local date, or 4 h for late-evening times), so older reminders need not be scanned.
 */
const REMINDER_LOOKBACK_MS = 2 * 24 * 3600_000;

/** The zone a member is asked in: their Slack timezone, or the schedule's when Slack gave none we can use. */
export function memberZone(tz: string | null | undefined, fallback: string): string {
  return tz && IANAZone.isValidZone(tz) ? tz : fallback;
}

export interface MemberTimezoneRunDue {
  localDate: string;
  /** The date's schedule time in the earliest zone: no participant is asked before it. */
  startsAt: Date;
}

/**
 * The dates whose member-timezone run should be claimed at `now`, oldest first: a listed weekday that is
 * not a holiday, whose schedule time has arrived in the earliest zone, and on which someone in one of
 * `zones` can still be asked: their ask is after the current timing took effect (`notBefore`) and is
 * ahead or less than the catch-up window (3 h) ago. Dates already claimed are left out first, so the
 * per-zone arithmetic runs only for a date not yet claimed.
 */
export function memberTimezoneRunsDue(
  timing: { time: string; days: readonly Weekday[] },
  zones: readonly string[],
  now: Date,
  opts: {
    isHoliday: (localDate: string) => boolean;
    isClaimed: (localDate: string) => boolean;
    notBefore: Date | null;
  },
): MemberTimezoneRunDue[] {
  const today = localDateOf(now, EARLIEST_ZONE);
  const due: MemberTimezoneRunDue[] = [];
  // A date's asks span the day's 26 hours of offsets plus the catch-up window: two days back is enough.
  for (const localDate of [shiftDate(today, -2), shiftDate(today, -1), today]) {
    const weekday = WEEKDAYS[DateTime.fromISO(localDate, { zone: "utc" }).weekday - 1]!;
    if (!timing.days.includes(weekday) || opts.isHoliday(localDate) || opts.isClaimed(localDate)) continue;
    const startsAt = runStartFor({ time: timing.time, tz: EARLIEST_ZONE }, localDate).toJSDate();
    if (startsAt > now) continue;
    const someoneAskable = zones.some((tz) => {
      const askAt = runStartFor({ time: timing.time, tz }, localDate).toMillis();
      return (opts.notBefore === null || askAt > opts.notBefore.getTime()) && now.getTime() - askAt < MAX_LATE_MS;
    });
    if (someoneAskable) due.push({ localDate, startsAt });
  }
  return due;
}

/**
 * Asks every planned participant whose own time has come: one statement moves them from `pending` to
 * `asked` (two instances ticking at once cannot both claim a member) and their DM jobs are enqueued in the
 * same transaction, in one statement however many are due. Asks more than 3 h late (downtime) stay pending: those members are not asked that date.
 */
export async function askDueMembers(deps: Deps, now: Date): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const due = await claimDueAsks(tx, now, new Date(now.getTime() - MAX_LATE_MS));
    await deps.queue.enqueueMany(
      "standup.ask",
      due.map((p) => ({ teamId: p.teamId, runId: p.runId, userId: p.userId })),
      { tx },
    );
    return due.length;
  });
}

/**
 * Reminds each asked, unanswered participant of any run at their own reminder time (set when their ask went out),
 * claimed the same way; the runs they belong to record that they reminded.
 */
export async function remindDueMembers(deps: Deps, now: Date): Promise<{ members: number; runs: number }> {
  return deps.db.transaction(async (tx) => {
    const due = await claimDueReminders(tx, now, new Date(now.getTime() - REMINDER_LOOKBACK_MS));
    // One statement for all of them: a run of 20,000 enqueues 20,000 reminders.
    await deps.queue.enqueueMany(
      "standup.remind",
      due.map((p) => ({ teamId: p.teamId, runId: p.runId, userId: p.userId })),
      { tx },
    );
    const runIds = [...new Set(due.map((p) => p.runId))];
    await markRunsReminded(tx, runIds, now);
    return { members: due.length, runs: runIds.length };
  });
}
