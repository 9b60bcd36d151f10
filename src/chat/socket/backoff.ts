/** First wait before reconnecting after a dropped socket or a failed attempt. */
export const RECONNECT_BASE_MS = 1_000;
/** Longest wait between attempts (Slack unreachable for a long time). */
export const RECONNECT_CAP_MS = 60_000;

/**
 * The wait before reconnect attempt `failures` (0: the first after a drop): exponential up to `capMs`, with "equal
 * jitter" (a random half on top of a fixed half), so instances that lost Slack at the same moment do not all come
 * back at the same moment. Slack's own client waits 5 s × attempts with no jitter.
 */
export function reconnectDelay(
  failures: number,
  random: () => number = Math.random,
  baseMs = RECONNECT_BASE_MS,
  capMs = RECONNECT_CAP_MS,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(failures, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
