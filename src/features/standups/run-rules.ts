/** Rules every run follows, whether the scheduler or Run now starts it. */

/** When the one reminder goes out: `reminderMinutes` after the start, or never (null) when the schedule has none. */
export function remindAtFor(startsAt: Date, reminderMinutes: number | null): Date | null {
  return reminderMinutes === null ? null : new Date(startsAt.getTime() + reminderMinutes * 60_000);
}

/**
 * A date runs only if the schedule's current timing was in force at its start: creating, re-timing or resuming
 * a schedule at 11:13 never starts today's 09:00 run (no "catch-up" for a time that was not set yet). Null for
 * schedules older than this rule: no restriction. The 3-hour catch-up stays for downtime only.
 */
export function timingInForce(timingChangedAt: Date | null, startsAt: Date): boolean {
  return timingChangedAt === null || timingChangedAt.getTime() <= startsAt.getTime();
}

/** A reminder is useful only with time left to answer after it: it goes out at least this long before the close. */
export const REMINDER_LEAD_MS = 30 * 60_000;
/** Nor sooner than this after the ask (or the schedule's own delay, if shorter): not a second ping moments later. */
export const MIN_REMINDER_GAP_MS = 60 * 60_000;

/**
 * When a participant is reminded, counted from when their ask actually went out (`askedAt`), never from the run's
 * planned start: the schedule's delay after the ask. An ask late enough that this falls within REMINDER_LEAD_MS of
 * their window's close (downtime, a slow fan-out) is reminded REMINDER_LEAD_MS before the close instead, if that is
 * still MIN_REMINDER_GAP_MS (or the delay, if shorter) after the ask; otherwise not at all. Null: no reminder.
 */
export function reminderAfterAsk(askedAt: Date, delayMs: number | null, closesAt: Date): Date | null {
  if (delayMs === null) return null;
  const wanted = askedAt.getTime() + delayMs;
  const latest = closesAt.getTime() - REMINDER_LEAD_MS;
  if (wanted <= latest) return new Date(wanted);
  return latest - askedAt.getTime() >= Math.min(delayMs, MIN_REMINDER_GAP_MS) ? new Date(latest) : null;
}
