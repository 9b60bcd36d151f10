import { sql } from "drizzle-orm";
import { daysAgo, type PruneStep } from "../../lib/retention.ts";
import { FIRING_RETENTION_DAYS } from "./rules.jobs.ts";

export const rulePruneSteps: readonly PruneStep[] = [
  {
    name: "rule_firings",
    table: "rule_firings",
    // A blocker_open_days firing is the claim that its item escalated once: pruned while the item is still open, the
    // next close would escalate it again. It goes once the item is resolved (or gone) and the firing is old enough.
    where: (now) => sql`created_at < ${daysAgo(now, FIRING_RETENTION_DAYS)}
      and (blocker_id is null or not exists (select 1 from blockers b
        where b.team_id = rule_firings.team_id and b.id = rule_firings.blocker_id and b.status = 'open'))`,
  },
];
