import { sql } from "drizzle-orm";
import { dateDaysAgo, type PruneStep } from "../../lib/retention.ts";

/** Holidays this far in the past go; the 1,000-per-workspace cap counts the ones kept. */
export const HOLIDAY_RETENTION_DAYS = 400;

export const calendarPruneSteps: readonly PruneStep[] = [
  {
    name: "holidays",
    table: "holidays",
    where: (now) => sql`date < ${dateDaysAgo(now, HOLIDAY_RETENTION_DAYS)}::date`,
  },
];
