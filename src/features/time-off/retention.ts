import { sql } from "drizzle-orm";
import { dateDaysAgo, type PruneStep } from "../../lib/retention.ts";
import { TIME_OFF_RETENTION_DAYS } from "./time-off.service.ts";

export const timeOffPruneSteps: readonly PruneStep[] = [
  // A day more than the feature's own rule: a workspace's today is at most a day from the UTC date.
  {
    name: "time_off",
    table: "time_off",
    where: (now) => sql`end_date < ${dateDaysAgo(now, TIME_OFF_RETENTION_DAYS + 1)}::date`,
  },
];
