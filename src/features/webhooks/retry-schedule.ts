/**
 * When a failed delivery is tried again: the Standard Webhooks example schedule, measured from the end of the
 * failed attempt. The first attempt is immediate; after the tenth fails the delivery has failed for good
 * (about 3 days and 3 hours after the first).
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** An endpoint that has failed every attempt since a failure this long ago is disabled. */
export const FAILING_DISABLE_MS = 5 * 24 * HOUR;

/**
 * A failure this long after the previous one starts a new streak: while any delivery is pending the endpoint is
 * tried at least every 24 hours (the longest retry gap), so a longer silence means nothing was tried, not that
 * everything failed.
 */
export const FAILURE_STREAK_GAP_MS = 25 * HOUR;

/** How long a claimed attempt may run before it counts as lost (a worker that died): well past the 10 s timeout. */
export const ATTEMPT_LEASE_MS = 60 * SECOND;

/** When attempt `attempt + 1` is due after attempt `attempt` (1-based) failed at `failedAt`; undefined: no more. */
export function nextAttemptAt(attempt: number, failedAt: Date): Date | undefined {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? undefined : new Date(failedAt.getTime() + delay);
}
