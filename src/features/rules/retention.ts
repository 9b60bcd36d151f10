import { sql } from "drizzle-orm";
import { daysAgo, type PruneStep } from "../../lib/retention.ts";
import { FIRING_RETENTION_DAYS } from "./rules.jobs.ts";

export const rulePruneSteps: readonly PruneStep[] = [
  {
    name: "rule_firings",
    table: "rule_firings",
    where: (now) => sql`created_at < ${daysAgo(now, FIRING_RETENTION_DAYS)}`,
  },
];
