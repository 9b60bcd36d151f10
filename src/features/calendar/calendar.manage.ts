import { and, asc, eq, sql } from "drizzle-orm";
import { anyOf, pgArray } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import { holidays, workspaceCalendars } from "../../db/schema.ts";

/**
 * Editing the workspace calendar (the Celebrations settings and the Calendar page do): its timezone, working days
 * and holidays. Every statement takes the workspace id.
 */

/** Holidays a workspace may keep: years of public holidays, and the whole list is one short answer. */
export const MAX_HOLIDAYS = 1_000;

export const DEFAULT_WORKING_DAYS = ["mon", "tue", "wed", "thu", "fri"] as const;

export interface CalendarRow {
  timezone: string;
  workingDays: string[];
  /** False when the workspace never saved one (the defaults: UTC, Monday to Friday). */
  saved: boolean;
}

export async function readCalendar(ex: Executor, teamId: string): Promise<CalendarRow> {
  const [row] = await ex
    .select({ timezone: workspaceCalendars.timezone, workingDays: workspaceCalendars.workingDays })
    .from(workspaceCalendars)
    .where(eq(workspaceCalendars.teamId, teamId))
    .limit(1);
  if (!row) return { timezone: "UTC", workingDays: [...DEFAULT_WORKING_DAYS], saved: false };
  return { timezone: row.timezone, workingDays: row.workingDays.split(",").filter(Boolean), saved: true };
}

/** The calendars of these workspaces; absent ones are not in the map. */
export async function readCalendars(ex: Executor, teamIds: string[]): Promise<Map<string, CalendarRow>> {
  if (teamIds.length === 0) return new Map();
  const found = await rows<{ team_id: string; timezone: string; working_days: string }>(
    ex,
    sql`select team_id, timezone, working_days from workspace_calendars
        where ${anyOf(sql`team_id`, teamIds)}`,
  );
  return new Map(
    found.map((r) => [
      r.team_id,
      { timezone: r.timezone, workingDays: r.working_days.split(",").filter(Boolean), saved: true },
    ]),
  );
}

export async function saveCalendar(
  ex: Executor,
  teamId: string,
  cal: { timezone: string; workingDays: readonly string[] },
  now: Date,
): Promise<void> {
  const values = { teamId, timezone: cal.timezone, workingDays: cal.workingDays.join(","), updatedAt: now };
  await ex
    .insert(workspaceCalendars)
    .values(values)
    .onConflictDoUpdate({
      target: workspaceCalendars.teamId,
      set: { timezone: values.timezone, workingDays: values.workingDays, updatedAt: now },
    });
}

export interface HolidayRow {
  date: string;
  name: string;
}

/** Every holiday of the workspace by date (at most MAX_HOLIDAYS). */
export async function listHolidays(ex: Executor, teamId: string): Promise<HolidayRow[]> {
  return ex
    .select({ date: holidays.date, name: holidays.name })
    .from(holidays)
    .where(eq(holidays.teamId, teamId))
    .orderBy(asc(holidays.date))
    .limit(MAX_HOLIDAYS);
}

/** The holidays of the workspace between two dates (both included), by date. */
export async function holidaysIn(ex: Executor, teamId: string, from: string, to: string): Promise<HolidayRow[]> {
  return ex
    .select({ date: holidays.date, name: holidays.name })
    .from(holidays)
    .where(and(eq(holidays.teamId, teamId), sql`${holidays.date} between ${from} and ${to}`))
    .orderBy(asc(holidays.date))
    .limit(MAX_HOLIDAYS);
}

/** Serialises the workspace's holiday writes, so the cap holds with parallel requests. */
async function lockHolidays(ex: Executor, teamId: string): Promise<void> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`upbeat.holidays:${teamId}`}, 0))`);
}

async function countHolidays(ex: Executor, teamId: string): Promise<number> {
  const [r] = await rows<{ n: number }>(ex, sql`select count(*)::int as n from holidays where team_id = ${teamId}`);
  return Number(r?.n ?? 0);
}

/**
 * Adds the holiday, or renames the one on that date; "full" when it would be one more than MAX_HOLIDAYS. Run it in a
 * transaction (the lock is the transaction's).
 */
export async function putHoliday(ex: Executor, teamId: string, h: HolidayRow): Promise<"created" | "renamed" | "full"> {
  await lockHolidays(ex, teamId);
  const [renamed] = await ex
    .update(holidays)
    .set({ name: h.name })
    .where(and(eq(holidays.teamId, teamId), eq(holidays.date, h.date)))
    .returning({ date: holidays.date });
  if (renamed) return "renamed";
  if ((await countHolidays(ex, teamId)) >= MAX_HOLIDAYS) return "full";
  await ex.insert(holidays).values({ teamId, date: h.date, name: h.name });
  return "created";
}

/** Writes many (new ones and renames) at once; false, writing nothing, when the total would pass MAX_HOLIDAYS. */
export async function putHolidays(ex: Executor, teamId: string, list: HolidayRow[]): Promise<boolean> {
  if (list.length === 0) return true;
  await lockHolidays(ex, teamId);
  const existing = new Set((await listHolidays(ex, teamId)).map((h) => h.date));
  const added = list.filter((h) => !existing.has(h.date)).length;
  if (existing.size + added > MAX_HOLIDAYS) return false;
  await ex.execute(
    sql`insert into holidays (team_id, date, name)
        select ${teamId}::text, h.date, h.name
        from unnest(${pgArray(
          "date",
          list.map((h) => h.date),
        )}, ${pgArray(
          "text",
          list.map((h) => h.name),
        )}) with ordinality as h(date, name, n)
        order by h.n
        on conflict (team_id, date) do update set name = excluded.name`,
  );
  return true;
}

/** False when the workspace has no holiday on that date. */
export async function deleteHoliday(ex: Executor, teamId: string, date: string): Promise<boolean> {
  const gone = await ex
    .delete(holidays)
    .where(and(eq(holidays.teamId, teamId), eq(holidays.date, date)))
    .returning({ date: holidays.date });
  return gone.length > 0;
}
