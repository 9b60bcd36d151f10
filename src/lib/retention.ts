import type { SQL } from "drizzle-orm";

/**
 * One table's retention, declared by the feature (or layer) that owns the table, next to the rule it follows; the
 * daily maintenance pass (features/maintenance) collects them and deletes in batches. `where` picks the rows that
 * go, given the pass's `now`.
 */
export interface PruneStep {
  name: string;
  table: string;
  where: (now: Date) => SQL;
}

const DAY_MS = 86_400_000;

/** The instant `days` before `now`, as an ISO string for a timestamptz comparison. */
export const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
/** The UTC date `days` before `now`'s UTC date (YYYY-MM-DD). */
export const dateDaysAgo = (now: Date, days: number) => daysAgo(now, days).slice(0, 10);
