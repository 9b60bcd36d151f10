import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { installations, schedules } from "../../db/schema.ts";
import { DEFAULT_MAX_LATE_MINUTES } from "./timing.ts";

export type ScheduleRow = typeof schedules.$inferSelect;
export type NewScheduleRow = typeof schedules.$inferInsert;

/** The editable columns of a schedule; omitted ones stay as they are. */
export type SchedulePatch = Partial<
  Pick<
    ScheduleRow,
    | "channelId"
    | "scheduleTime"
    | "scheduleTz"
    | "scheduleDays"
    | "questions"
    | "questionDetails"
    | "answerEarlyHours"
    | "active"
    | "name"
    | "blockerQuestion"
    | "reminderMinutes"
    | "askInMemberTimezone"
    | "kudosField"
    | "aiSummary"
    | "timingChangedAt"
  >
>;

const live = (teamId: string) => and(eq(schedules.teamId, teamId), isNull(schedules.deletedAt));

/** The workspace's schedules that are not deleted, oldest first. */
export async function selectSchedules(ex: Executor, teamId: string): Promise<ScheduleRow[]> {
  return ex.select().from(schedules).where(live(teamId)).orderBy(asc(schedules.createdAt), asc(schedules.id));
}

export async function selectSchedule(ex: Executor, teamId: string, id: string): Promise<ScheduleRow | undefined> {
  const [row] = await ex
    .select()
    .from(schedules)
    .where(and(live(teamId), eq(schedules.id, id)))
    .limit(1);
  return row;
}

/** The live schedule, locked until the transaction ends: an edit decides from the row as it stands. */
export async function lockSchedule(ex: Executor, teamId: string, id: string): Promise<ScheduleRow | undefined> {
  const [row] = await ex
    .select()
    .from(schedules)
    .where(and(live(teamId), eq(schedules.id, id)))
    .limit(1)
    .for("update");
  return row;
}

/** Inserts unless the id is taken; undefined tells the caller to draw another id. */
export async function insertSchedule(ex: Executor, row: NewScheduleRow): Promise<ScheduleRow | undefined> {
  const [inserted] = await ex.insert(schedules).values(row).onConflictDoNothing({ target: schedules.id }).returning();
  return inserted;
}

/** One statement, so concurrent edits of different fields never overwrite each other with stale values. */
export async function updateScheduleRow(
  ex: Executor,
  teamId: string,
  id: string,
  patch: SchedulePatch,
  now: Date,
): Promise<ScheduleRow | undefined> {
  const [row] = await ex
    .update(schedules)
    .set({ ...patch, updatedAt: now })
    .where(and(live(teamId), eq(schedules.id, id)))
    .returning();
  return row;
}

/**
 * Every live schedule of the workspace takes its timing from `now`, as resuming one does: no date whose start
 * came before runs (a reinstall: nothing missed while the app was uninstalled is caught up).
 */
export async function restartTiming(ex: Executor, teamId: string, now: Date): Promise<void> {
  await ex.update(schedules).set({ timingChangedAt: now }).where(live(teamId));
}

/** Soft delete: runs and responses keep pointing at the row. False when there was no live schedule. */
export async function markScheduleDeleted(ex: Executor, teamId: string, id: string, now: Date): Promise<boolean> {
  const deleted = await ex
    .update(schedules)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(live(teamId), eq(schedules.id, id)))
    .returning({ id: schedules.id });
  return deleted.length > 0;
}

/**
 * Active, not deleted schedules of installed workspaces: what the scheduler looks at each tick. The
 * installation check is a join, so the 30-second tick stays one query however many workspaces there are.
 */
export async function selectSchedulesToRun(ex: Executor): Promise<ScheduleRow[]> {
  const found = await ex
    .select({ s: schedules })
    .from(schedules)
    .innerJoin(installations, and(eq(installations.teamId, schedules.teamId), isNull(installations.uninstalledAt)))
    .where(and(eq(schedules.active, true), isNull(schedules.deletedAt)));
  return found.map((f) => f.s);
}

/** The latest run of a schedule, with how many were asked so far and how many answered. */
export interface LastRunRow {
  scheduleId: string;
  localDate: string;
  status: "open" | "closed" | "skipped";
  trigger: "schedule" | "manual";
  asked: number;
  answered: number;
  /** Pending participants whose own time is still to come (or within the scheduler's catch-up window). */
  askedLater: number;
  away: number;
}

/**
 * The latest run of each live schedule of the workspace, in one statement: a lateral lookup per schedule walks
 * the (schedule_id, local_date) unique index backwards and stops at the first row, and only that run's
 * participants and answers are counted. Participants still `pending` (member-timezone runs) are not asked yet.
 */
export async function selectLastRuns(ex: Executor, teamId: string, now: Date): Promise<LastRunRow[]> {
  const at = now.toISOString();
  return rows<LastRunRow>(
    ex,
    sql`select s.id as "scheduleId", last.local_date::text as "localDate", last.status, last.trigger,
               (select count(*) from run_participants p
                 where p.run_id = last.id and p.status not in ('pending', 'away'))::int as asked,
               (select count(*) from responses r where r.run_id = last.id)::int as answered,
               -- As the Today card counts them (insights/today.repo.ts), so both say the same.
               (select count(*) from run_participants p
                 where p.run_id = last.id and p.status = 'pending'
                   and p.ask_at > ${at}::timestamptz - make_interval(mins => ${DEFAULT_MAX_LATE_MINUTES}))::int
                 as "askedLater",
               (select count(*) from run_participants p
                 where p.run_id = last.id and p.status = 'away')::int as away
        from schedules s
        cross join lateral (
          select run.id, run.local_date, run.status, run.trigger from standup_runs run
          where run.schedule_id = s.id and run.team_id = s.team_id
          order by run.local_date desc
          limit 1
        ) last
        where s.team_id = ${teamId} and s.deleted_at is null`,
  );
}
