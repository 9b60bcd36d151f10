import { and, asc, eq, gte, lt, lte, type SQL, sql } from "drizzle-orm";
import { anyOf } from "../../db/arrays.ts";
import { type Executor, rows, type Tx } from "../../db/client.ts";
import { type AnswerVia, timeOff } from "../../db/schema.ts";

export type TimeOffRow = typeof timeOff.$inferSelect;

/**
 * SQL: member `userId` of workspace `teamId` is away on `date` (all three SQL expressions, e.g. columns of the
 * caller's query). One short range of the (team_id, user_id, start_date) index.
 */
export function awayOnSql(teamId: SQL, userId: SQL, date: SQL): SQL {
  return sql`exists (select 1 from time_off o
    where o.team_id = ${teamId} and o.user_id = ${userId} and o.start_date <= ${date} and o.end_date >= ${date})`;
}

/** Which of these members are away on `date`. */
export async function selectAwayOn(
  ex: Executor,
  teamId: string,
  userIds: string[],
  date: string,
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const found = await ex
    .selectDistinct({ userId: timeOff.userId })
    .from(timeOff)
    .where(
      and(
        eq(timeOff.teamId, teamId),
        anyOf(timeOff.userId, [...new Set(userIds)]),
        lte(timeOff.startDate, date),
        gte(timeOff.endDate, date),
      ),
    );
  return new Set(found.map((r) => r.userId));
}

/**
 * Serialises writes to one member's ranges (transaction-scoped): two requests merging at once cannot both miss the
 * other's range and leave an overlap, nor both count the ranges before either stores one and pass the cap.
 * Re-entrant: taking it again in the same transaction does not wait.
 */
export async function lockMember(tx: Tx, teamId: string, userId: string): Promise<void> {
  await rows(tx, sql`select pg_advisory_xact_lock(hashtextextended(${`time-off:${teamId}:${userId}`}, 0))::text`);
}

export interface NewRange {
  teamId: string;
  userId: string;
  startDate: string;
  endDate: string;
  reason: string;
  createdBy: string;
  /** Where it came from when not Slack or the dashboard ('mcp'). */
  via?: AnswerVia | null;
}

/**
 * Stores the range merged with the member's overlapping or adjacent ranges (one day apart counts as adjacent): they
 * are deleted and one range covering them all is inserted, under the member's lock. The merged range keeps the new
 * reason, or else the earliest non-empty one.
 */
export async function insertMerged(tx: Tx, r: NewRange, now: Date): Promise<TimeOffRow> {
  await lockMember(tx, r.teamId, r.userId);
  const touching = await tx
    .delete(timeOff)
    .where(
      and(
        eq(timeOff.teamId, r.teamId),
        eq(timeOff.userId, r.userId),
        sql`${timeOff.startDate} <= ${r.endDate}::date + 1`,
        sql`${timeOff.endDate} >= ${r.startDate}::date - 1`,
      ),
    )
    .returning();
  touching.sort((a, b) => a.startDate.localeCompare(b.startDate));
  const startDate = [r.startDate, ...touching.map((t) => t.startDate)].sort()[0]!;
  const endDate = [r.endDate, ...touching.map((t) => t.endDate)].sort().at(-1)!;
  const reason = r.reason || touching.find((t) => t.reason)?.reason || "";
  const first = touching[0];
  const [row] = await tx
    .insert(timeOff)
    .values({
      teamId: r.teamId,
      userId: r.userId,
      startDate,
      endDate,
      reason,
      createdBy: first?.createdBy ?? r.createdBy,
      via: r.via ?? null,
      createdAt: first?.createdAt ?? now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/** The member's current and upcoming ranges (ending on or after `today`), oldest first. */
export async function selectUpcoming(ex: Executor, teamId: string, userId: string, today: string, limit: number) {
  return ex
    .select()
    .from(timeOff)
    .where(and(eq(timeOff.teamId, teamId), eq(timeOff.userId, userId), gte(timeOff.endDate, today)))
    .orderBy(asc(timeOff.startDate))
    .limit(limit);
}

export async function countUpcoming(ex: Executor, teamId: string, userId: string, today: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from time_off where team_id = ${teamId} and user_id = ${userId} and end_date >= ${today}`,
  );
  return Number(row?.n ?? 0);
}

export interface ListedRange extends TimeOffRow {
  realName: string;
}

/** Ranges of the workspace (or one member), current and upcoming first by start date; `limit + 1` to tell more. */
export async function selectRanges(
  ex: Executor,
  teamId: string,
  opts: { userId?: string; from: string | null; limit: number },
): Promise<ListedRange[]> {
  const found = await rows<TimeOffRow & { realName: string; startDate: string; endDate: string }>(
    ex,
    sql`select o.id, o.team_id as "teamId", o.user_id as "userId", o.start_date::text as "startDate",
               o.end_date::text as "endDate", o.reason, o.created_by as "createdBy", o.created_at as "createdAt",
               o.updated_at as "updatedAt", o.via,
               coalesce(nullif(m.real_name, ''), nullif(m.display_name, ''), o.user_id) as "realName"
        from time_off o
        left join members m on m.team_id = o.team_id and m.user_id = o.user_id
        where o.team_id = ${teamId}
          ${opts.userId ? sql`and o.user_id = ${opts.userId}` : sql``}
          ${opts.from ? sql`and o.end_date >= ${opts.from}` : sql``}
        order by o.start_date, o.user_id, o.id
        limit ${opts.limit + 1}`,
  );
  return found.map((r) => ({
    ...r,
    id: Number(r.id),
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
  }));
}

export async function findRange(ex: Executor, teamId: string, id: number): Promise<TimeOffRow | undefined> {
  const [row] = await ex
    .select()
    .from(timeOff)
    .where(and(eq(timeOff.teamId, teamId), eq(timeOff.id, id)));
  return row;
}

export async function deleteRange(tx: Tx, teamId: string, id: number): Promise<TimeOffRow | undefined> {
  const [row] = await tx
    .delete(timeOff)
    .where(and(eq(timeOff.teamId, teamId), eq(timeOff.id, id)))
    .returning();
  return row;
}

/**
 * The dates of the member's open runs on or after `from` (the run's date, or the member's own date in a
 * member-timezone run): a run still open on a date before the workspace's today (a schedule west of the calendar's
 * zone) compares the member's time off with its own date. Read from the standups tables: one indexed range.
 */
export async function openRunDates(ex: Executor, teamId: string, userId: string, from: string): Promise<string[]> {
  const found = await rows<{ d: string }>(
    ex,
    sql`select distinct coalesce(p.local_date, run.local_date)::text as d
        from run_participants p join standup_runs run on run.id = p.run_id
        where p.team_id = ${teamId} and p.user_id = ${userId} and run.team_id = ${teamId} and run.status = 'open'
          and coalesce(p.local_date, run.local_date) >= ${from}::date`,
  );
  return found.map((r) => r.d);
}

/**
 * `back` from `from` on: the member's range covering any day from `from` to `today` ends the day before `from`
 * (deleted when it started on or after `from`). Ranges after `today` stay. Returns the range as it was, or
 * undefined when none covered those days.
 */
export async function endRangeFrom(
  tx: Tx,
  teamId: string,
  userId: string,
  from: string,
  today: string,
  now: Date,
): Promise<TimeOffRow | undefined> {
  await lockMember(tx, teamId, userId);
  const where = and(
    eq(timeOff.teamId, teamId),
    eq(timeOff.userId, userId),
    lte(timeOff.startDate, today),
    gte(timeOff.endDate, from),
  );
  // Adjacent ranges merge, so at most one range touches these (one or two) days; each is handled all the same.
  const found = await tx.select().from(timeOff).where(where).orderBy(asc(timeOff.startDate));
  for (const current of found) {
    if (current.startDate >= from) await tx.delete(timeOff).where(and(where, eq(timeOff.id, current.id)));
    else
      await tx
        .update(timeOff)
        .set({ endDate: sql`${from}::date - 1`, updatedAt: now })
        .where(and(where, eq(timeOff.id, current.id)));
  }
  return found[0];
}

/** Retention: ranges of the workspace that ended before `before`. */
export async function pruneEnded(ex: Executor, teamId: string, before: string): Promise<void> {
  await ex.delete(timeOff).where(and(eq(timeOff.teamId, teamId), lt(timeOff.endDate, before)));
}
