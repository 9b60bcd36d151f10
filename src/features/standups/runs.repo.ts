import { and, eq, lte, sql } from "drizzle-orm";
import { anyOf } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import { standupRuns } from "../../db/schema.ts";

export type RunRow = typeof standupRuns.$inferSelect;

/** Which of these (schedule, local date) pairs already have a run: the cheap pre-check before claiming. */
export async function existingRunKeys(ex: Executor, scheduleIds: string[], fromDate: string): Promise<Set<string>> {
  if (scheduleIds.length === 0) return new Set();
  const found = await ex
    .select({ scheduleId: standupRuns.scheduleId, localDate: standupRuns.localDate })
    .from(standupRuns)
    .where(and(anyOf(standupRuns.scheduleId, scheduleIds), sql`${standupRuns.localDate} >= ${fromDate}`));
  return new Set(found.map((r) => `${r.scheduleId}|${r.localDate}`));
}

type RunDefaults = "blockerQuestion" | "trigger" | "memberTimezone" | "questionDetails";

export type NewRun = Omit<RunRow, "id" | "parentTs" | "remindedAt" | "closedAt" | RunDefaults> &
  Partial<Pick<RunRow, RunDefaults>>;

/** The exactly-once claim: only the instance whose insert succeeds gets an id back. */
export async function claimRun(ex: Executor, run: NewRun): Promise<number | undefined> {
  const inserted = await ex
    .insert(standupRuns)
    .values(run)
    .onConflictDoNothing({ target: [standupRuns.scheduleId, standupRuns.localDate] })
    .returning({ id: standupRuns.id });
  return inserted[0]?.id;
}

export async function findRun(ex: Executor, teamId: string, runId: number): Promise<RunRow | undefined> {
  const [row] = await ex
    .select()
    .from(standupRuns)
    .where(and(eq(standupRuns.teamId, teamId), eq(standupRuns.id, runId)));
  return row;
}

/** Whether a run may still send messages: `live`, or why not. */
export type RunStanding = "live" | "paused" | "deleted" | "uninstalled" | "missing";

/**
 * The run's schedule and workspace as they stand now (not as they were when the run was claimed): a schedule paused
 * or deleted, or a workspace that uninstalled the app, since then stops the run. One indexed lookup per table.
 */
export async function runStanding(ex: Executor, teamId: string, runId: number): Promise<RunStanding> {
  const [row] = await rows<{ active: boolean; deleted: boolean; uninstalled: boolean }>(
    ex,
    sql`select s.active, s.deleted_at is not null as deleted, (i.team_id is null or i.uninstalled_at is not null) as uninstalled
        from standup_runs run
        join schedules s on s.id = run.schedule_id and s.team_id = run.team_id
        left join installations i on i.team_id = run.team_id
        where run.id = ${runId} and run.team_id = ${teamId}`,
  );
  if (!row) return "missing";
  if (row.uninstalled) return "uninstalled";
  if (row.deleted) return "deleted";
  return row.active ? "live" : "paused";
}

export async function setParentTs(ex: Executor, runId: number, ts: string): Promise<void> {
  await ex.update(standupRuns).set({ parentTs: ts }).where(eq(standupRuns.id, runId));
}

export async function runsToClose(ex: Executor, now: Date): Promise<RunRow[]> {
  return ex
    .select()
    .from(standupRuns)
    .where(and(eq(standupRuns.status, "open"), lte(standupRuns.closesAt, now)));
}

export async function claimClose(ex: Executor, runId: number, now: Date): Promise<boolean> {
  const r = await ex
    .update(standupRuns)
    .set({ status: "closed", closedAt: now })
    .where(and(eq(standupRuns.id, runId), eq(standupRuns.status, "open")))
    .returning({ id: standupRuns.id });
  return r.length > 0;
}

/** A member-timezone run closes when its last participant's window ends (unchanged while it has none). */
export async function closeRunWithLastWindow(ex: Executor, runId: number): Promise<void> {
  await ex.execute(
    sql`update standup_runs set closes_at = last.closes_at
        from (select max(closes_at) as closes_at from run_participants where run_id = ${runId}) last
        where id = ${runId} and status = 'open' and last.closes_at is not null`,
  );
}
