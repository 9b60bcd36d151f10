import { sql } from "drizzle-orm";
import type { PruneStep } from "../../lib/retention.ts";
import { DELIVERY_RETENTION_MS } from "./webhooks.jobs.ts";

/** Finished deliveries only: a pending one has a retry scheduled (the sweeper also trims each endpoint's log hourly). */
export const webhookPruneSteps: readonly PruneStep[] = [
  {
    name: "webhook_deliveries",
    table: "webhook_deliveries",
    where: (now) =>
      sql`status <> 'pending' and created_at < ${new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString()}`,
  },
];
