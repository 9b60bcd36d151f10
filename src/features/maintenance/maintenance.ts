import { sql } from "drizzle-orm";
import { chatPruneSteps } from "../../chat/retention.ts";
import type { Executor } from "../../db/client.ts";
import { rows } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { rateLimitPruneSteps } from "../../http/rate-limit.ts";
import { type StopTicker, startTicker } from "../../jobs/ticker.ts";
import { dateDaysAgo, type PruneStep } from "../../lib/retention.ts";
import { calendarPruneSteps } from "../calendar/index.ts";
import { teamTables } from "../data-removal/index.ts";
import { oauthPruneSteps } from "../oauth/index.ts";
import { rulePruneSteps } from "../rules/index.ts";
import { sessionPruneSteps } from "../session/index.ts";
import { standupPruneSteps } from "../standups/index.ts";
import { timeOffPruneSteps } from "../time-off/index.ts";
import { webhookPruneSteps } from "../webhooks/index.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    /** The daily retention run of one UTC day (claimed in maintenance_runs before it is queued). */
    "maintenance.run": { day: string };
  }
}

/** The run log itself. */
export const MAINTENANCE_RUN_RETENTION_DAYS = 90;

/** The run starts at this UTC hour (a quiet time for most workspaces), or at the first tick after it. */
export const MAINTENANCE_UTC_HOUR = 3;
/** How often each instance checks whether today's run is due and unclaimed. */
export const MAINTENANCE_TICK_MS = 3600_000;
/** Rows per delete statement: a first run on a big table never holds long locks or much memory. */
export const PRUNE_BATCH = 5_000;

/**
 * What the daily run deletes. Tables not listed are kept (the Retention table in docs/operations.md says why), or pruned by their
 * own feature as it goes: digest claims (each digest pass), celebration post claims (each celebrations pass).
 */
export const PRUNE_STEPS: readonly PruneStep[] = [
  ...chatPruneSteps,
  ...sessionPruneSteps,
  ...rateLimitPruneSteps,
  ...webhookPruneSteps,
  ...rulePruneSteps,
  ...timeOffPruneSteps,
  ...calendarPruneSteps,
  ...standupPruneSteps,
  ...oauthPruneSteps,
  {
    name: "maintenance_runs",
    table: "maintenance_runs",
    where: (now) => sql`day < ${dateDaysAgo(now, MAINTENANCE_RUN_RETENTION_DAYS)}::date`,
  },
];

/**
 * Deletes the step's rows `batch` at a time, each batch its own statement (and transaction), until a batch comes
 * back short. Returns how many went.
 */
export async function pruneInBatches(ex: Executor, step: PruneStep, now: Date, batch = PRUNE_BATCH): Promise<number> {
  const table = sql.identifier(step.table);
  let total = 0;
  for (;;) {
    const [row] = await rows<{ n: number | string }>(
      ex,
      sql`with gone as (
            delete from ${table} where ctid = any(array(
              select ctid from ${table} where ${step.where(now)} limit ${batch} for update skip locked))
            returning 1)
          select count(*) as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    total += n;
    if (n < batch) return total;
  }
}

/**
 * Tables the orphan sweep leaves alone: the installations themselves, and event ids (they may arrive a moment before
 * an installation is stored, and go after 7 days anyway).
 */
const NOT_ORPHAN_SWEPT = new Set(["installations", "chat_events"]);

/**
 * Rows of workspaces that no longer exist (their data was deleted): a write that was already under way when the
 * deletion committed (a scheduler tick, a listener, a running job) can leave one behind. An uninstalled workspace
 * keeps its installation row, so its data is never touched here. One step per table with a team_id column, read
 * from the live schema like the deletion itself.
 */
export async function orphanSteps(ex: Executor): Promise<PruneStep[]> {
  return (await teamTables(ex))
    .filter((table) => !NOT_ORPHAN_SWEPT.has(table))
    .map((table) => ({
      name: `orphans:${table}`,
      table,
      where: () => sql`team_id is not null and team_id not in (select team_id from installations)`,
    }));
}

export interface MaintenanceResult {
  pruned: Record<string, number>;
  failed: string[];
}

/**
 * Runs every prune step at `now`. A step that fails is logged and the others still run; the result names it.
 */
export async function runMaintenance(
  deps: Pick<Deps, "db" | "log">,
  now: Date,
  opts: { batch?: number; steps?: readonly PruneStep[] } = {},
): Promise<MaintenanceResult> {
  const result: MaintenanceResult = { pruned: {}, failed: [] };
  const steps = opts.steps ?? [...PRUNE_STEPS, ...(await orphanSteps(deps.db))];
  for (const step of steps) {
    try {
      result.pruned[step.name] = await pruneInBatches(deps.db, step, now, opts.batch);
    } catch (err) {
      result.failed.push(step.name);
      deps.log.error({ step: step.name, err: err instanceof Error ? err.message : String(err) }, "prune step failed");
    }
  }
  return result;
}

/** The UTC day whose run is due at `now`, or undefined before MAINTENANCE_UTC_HOUR. */
export function maintenanceDue(now: Date): string | undefined {
  return now.getUTCHours() >= MAINTENANCE_UTC_HOUR ? now.toISOString().slice(0, 10) : undefined;
}

/**
 * Claims today's run (a row under the day's unique key, so with several instances one claims it) and queues its
 * job in the same transaction. True when this call claimed it.
 */
export async function maintenanceTick(deps: Pick<Deps, "db" | "queue" | "clock">): Promise<boolean> {
  const now = deps.clock.now();
  const day = maintenanceDue(now);
  if (!day) return false;
  return deps.db.transaction(async (tx) => {
    const claimed = await rows<{ day: string }>(
      tx,
      sql`insert into maintenance_runs (day, claimed_at) values (${day}, ${now.toISOString()})
          on conflict (day) do nothing returning day`,
    );
    if (claimed.length === 0) return false;
    await deps.queue.enqueue("maintenance.run", { day }, { tx });
    return true;
  });
}

/**
 * The job: prunes at the job's own time, records the counts and outcome on the day's row, and throws when a step
 * failed, so the queue retries the whole run (every step is idempotent).
 */
export async function maintenanceJob(
  deps: Pick<Deps, "db" | "log" | "clock">,
  day: string,
  steps?: readonly PruneStep[],
): Promise<void> {
  const result = await runMaintenance(deps, deps.clock.now(), steps ? { steps } : {});
  const outcome = result.failed.length ? "failed" : "ok";
  await deps.db.execute(
    sql`update maintenance_runs set finished_at = ${deps.clock.now().toISOString()}, outcome = ${outcome},
        pruned = ${JSON.stringify(result.pruned)}::jsonb where day = ${day}`,
  );
  deps.log.info({ day, pruned: result.pruned, failed: result.failed }, "maintenance run finished");
  if (result.failed.length) throw new Error(`prune failed: ${result.failed.join(", ")}`);
}

export function maintenanceJobs(deps: Deps): void {
  deps.queue.register("maintenance.run", (p) => maintenanceJob(deps, p.day), { concurrency: 1 });
}

/** Checks every hour (just after the hour turns) until stopped; a failed check is logged and the next one retries. */
export function startMaintenanceScheduler(deps: Deps): StopTicker {
  return startTicker(deps.log, "maintenance check", MAINTENANCE_TICK_MS, () => maintenanceTick(deps));
}
