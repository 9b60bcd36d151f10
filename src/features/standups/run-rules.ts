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
