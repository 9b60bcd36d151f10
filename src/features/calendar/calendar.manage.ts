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

/** A holiday as the Calendar lists it: standups skip it only when a workspace admin made it a holiday. */
export interface ListedHoliday extends HolidayRow {
  skipsStandups: boolean;
}

/**
 * Who is writing a holiday. A workspace admin's holiday skips standups; a Celebrations admin's new one applies to
 * Celebrations only, and their renaming keeps whatever the holiday was.
 */
export type HolidayAuthor = "workspace-admin" | "celebrations-admin";

/** Every holiday of the workspace by date (at most MAX_HOLIDAYS). */
export async function listHolidays(ex: Executor, teamId: string): Promise<ListedHoliday[]> {
  return ex
    .select({ date: holidays.date, name: holidays.name, skipsStandups: holidays.skipsStandups })
    .from(holidays)
    .where(eq(holidays.teamId, teamId))
    .orderBy(asc(holidays.date))
    .limit(MAX_HOLIDAYS);
}

/** The holidays of the workspace between two dates (both included) that standups skip, by date. */
export async function standupHolidaysIn(ex: Executor, teamId: string, from: string, to: string): Promise<HolidayRow[]> {
  return ex
    .select({ date: holidays.date, name: holidays.name })
    .from(holidays)
    .where(
      and(
        eq(holidays.teamId, teamId),
        eq(holidays.skipsStandups, true),
        sql`${holidays.date} between ${from} and ${to}`,
      ),
    )
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
 * Adds the holiday, or renames the one on that date; "full" when it would be one more than MAX_HOLIDAYS. A workspace
 * admin's write makes it skip standups; a Celebrations admin's new holiday does not, and their rename keeps the flag.
 * Run it in a transaction (the lock is the transaction's).
 */
export async function putHoliday(
  ex: Executor,
  teamId: string,
  h: HolidayRow,
  by: HolidayAuthor,
): Promise<{ outcome: "created" | "renamed"; skipsStandups: boolean } | "full"> {
  await lockHolidays(ex, teamId);
  const byAdmin = by === "workspace-admin";
  const [renamed] = await ex
    .update(holidays)
    .set({ name: h.name, skipsStandups: sql`${holidays.skipsStandups} or ${byAdmin}` })
    .where(and(eq(holidays.teamId, teamId), eq(holidays.date, h.date)))
    .returning({ skipsStandups: holidays.skipsStandups });
  if (renamed) return { outcome: "renamed", skipsStandups: renamed.skipsStandups };
  if ((await countHolidays(ex, teamId)) >= MAX_HOLIDAYS) return "full";
  await ex.insert(holidays).values({ teamId, date: h.date, name: h.name, skipsStandups: byAdmin });
  return { outcome: "created", skipsStandups: byAdmin };
}

/**
 * Writes many (new ones and renames) at once, under the same rule as putHoliday; false, writing nothing, when the
 * total would pass MAX_HOLIDAYS.
 */
export async function putHolidays(
  ex: Executor,
  teamId: string,
  list: HolidayRow[],
  by: HolidayAuthor,
): Promise<boolean> {
  if (list.length === 0) return true;
  await lockHolidays(ex, teamId);
  const existing = new Set((await listHolidays(ex, teamId)).map((h) => h.date));
  const added = list.filter((h) => !existing.has(h.date)).length;
  if (existing.size + added > MAX_HOLIDAYS) return false;
  await ex.execute(
    sql`insert into holidays (team_id, date, name, skips_standups)
        select ${teamId}::text, h.date, h.name, ${by === "workspace-admin"}::boolean
        from unnest(${pgArray(
          "date",
          list.map((h) => h.date),
        )}, ${pgArray(
          "text",
          list.map((h) => h.name),
        )}) with ordinality as h(date, name, n)
        order by h.n
        on conflict (team_id, date) do update
          set name = excluded.name, skips_standups = holidays.skips_standups or excluded.skips_standups`,
  );
  return true;
}

/**
 * Removes the holiday on that date: "missing" when there is none, "skips-standups" (removing nothing) when it is
 * one standups skip and the caller is not a workspace admin.
 */
export async function deleteHoliday(
  ex: Executor,
  teamId: string,
  date: string,
  by: HolidayAuthor,
): Promise<"deleted" | "missing" | "skips-standups"> {
  const mine = and(eq(holidays.teamId, teamId), eq(holidays.date, date));
  const gone = await ex
    .delete(holidays)
    .where(by === "workspace-admin" ? mine : and(mine, eq(holidays.skipsStandups, false)))
    .returning({ date: holidays.date });
  if (gone.length > 0) return "deleted";
  const [left] = await ex.select({ date: holidays.date }).from(holidays).where(mine).limit(1);
  return left ? "skips-standups" : "missing";
}
