import { type SQL, sql } from "drizzle-orm";
import { FAILED_DELIVERY_RETENTION_DAYS } from "../../chat/intake/intake.ts";
import type { Executor } from "../../db/client.ts";
import { rows } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { type StopTicker, startTicker } from "../../jobs/ticker.ts";
import { teamTables } from "../data-removal/index.ts";
import { FIRING_RETENTION_DAYS } from "../rules/index.ts";
import { TIME_OFF_RETENTION_DAYS } from "../time-off/index.ts";
import { DELIVERY_RETENTION_MS } from "../webhooks/index.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    /** The daily retention run of one UTC day (claimed in maintenance_runs before it is queued). */
    "maintenance.run": { day: string };
  }
}

const DAY_MS = 86_400_000;

/** Slack retries an event within about an hour; a week of event ids is far more than any retry needs. */
export const CHAT_EVENT_RETENTION_DAYS = 7;
/** Every job gives up within about a day (queue.ts), so a settled claim this old has no retry coming. */
export const POST_CLAIM_RETENTION_DAYS = 30;
/** A claim left `sending` or `unknown` this long belongs to a job that gave up long ago. */
export const UNSETTLED_CLAIM_RETENTION_DAYS = 90;
/** Holidays this far in the past go; the 1,000-per-workspace cap counts the ones kept. */
export const HOLIDAY_RETENTION_DAYS = 400;
/** Rate-limit windows last a minute; a day-old one is long dead (the hot path prunes too, now and then). */
export const RATE_WINDOW_RETENTION_DAYS = 1;
/** A Slack rate bucket untouched this long is full again: its row says nothing a fresh one would not. */
export const RATE_BUCKET_RETENTION_DAYS = 1;
/** The run log itself. */
export const MAINTENANCE_RUN_RETENTION_DAYS = 90;

/** The run starts at this UTC hour (a quiet time for most workspaces), or at the first tick after it. */
export const MAINTENANCE_UTC_HOUR = 3;
/** How often each instance checks whether today's run is due and unclaimed. */
export const MAINTENANCE_TICK_MS = 3600_000;
/** Rows per delete statement: a first run on a big table never holds long locks or much memory. */
export const PRUNE_BATCH = 5_000;

/** One table's retention: `where` picks the rows that go (it may use ${now}). */
export interface PruneStep {
  name: string;
  table: string;
  where: (now: Date) => SQL;
}

const ago = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
/** A UTC date `days` before `now`'s UTC date. */
const dateAgo = (now: Date, days: number) => ago(now, days).slice(0, 10);

/**
 * What the daily run deletes. Tables not listed are kept (the README's Retention table says why), or pruned by their
 * own feature as it goes: digest claims (each digest pass), celebration post claims (each celebrations pass).
 */
export const PRUNE_STEPS: readonly PruneStep[] = [
  {
    name: "chat_events",
    table: "chat_events",
    // Failed deliveries are kept longer: admins are shown them ("events that could not be processed").
    where: (now) =>
      sql`(state <> 'failed' and received_at < ${ago(now, CHAT_EVENT_RETENTION_DAYS)})
          or received_at < ${ago(now, FAILED_DELIVERY_RETENTION_DAYS)}`,
  },
  { name: "sessions", table: "sessions", where: (now) => sql`expires_at < ${now.toISOString()}` },
  // A nonce expires after its token or state does: the token is refused as expired before its nonce is looked at.
  { name: "used_nonces", table: "used_nonces", where: (now) => sql`expires_at < ${now.toISOString()}` },
  {
    name: "rate_limits",
    table: "rate_limits",
    where: (now) => sql`window_start < ${ago(now, RATE_WINDOW_RETENTION_DAYS)}`,
  },
  {
    name: "chat_rate_buckets",
    table: "chat_rate_buckets",
    where: (now) => sql`updated_at < ${ago(now, RATE_BUCKET_RETENTION_DAYS)}`,
  },
  // Settled claims after 30 days. `sending` and `unknown` may still be in flight (post-once.ts takes them over when
  // stale), but not for 90 days: every job gives up within about a day, so such a claim has nothing behind it.
  {
    name: "chat_posts",
    table: "chat_posts",
    where: (now) =>
      sql`(state in ('sent', 'failed') and updated_at < ${ago(now, POST_CLAIM_RETENTION_DAYS)})
          or updated_at < ${ago(now, UNSETTLED_CLAIM_RETENTION_DAYS)}`,
  },
  // Finished deliveries only: a pending one has a retry scheduled (the sweeper also trims each endpoint's log hourly).
  {
    name: "webhook_deliveries",
    table: "webhook_deliveries",
    where: (now) =>
      sql`status <> 'pending' and created_at < ${new Date(now.getTime() - DELIVERY_RETENTION_MS).toISOString()}`,
  },
  {
    name: "rule_firings",
    table: "rule_firings",
    where: (now) => sql`created_at < ${ago(now, FIRING_RETENTION_DAYS)}`,
  },
  // A day more than the feature's own rule: a workspace's today is at most a day from the UTC date.
  {
    name: "time_off",
    table: "time_off",
    where: (now) => sql`end_date < ${dateAgo(now, TIME_OFF_RETENTION_DAYS + 1)}::date`,
  },
  { name: "holidays", table: "holidays", where: (now) => sql`date < ${dateAgo(now, HOLIDAY_RETENTION_DAYS)}::date` },
  {
    name: "maintenance_runs",
    table: "maintenance_runs",
    where: (now) => sql`day < ${dateAgo(now, MAINTENANCE_RUN_RETENTION_DAYS)}::date`,
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
