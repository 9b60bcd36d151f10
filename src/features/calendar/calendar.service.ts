import { DateTime, IANAZone } from "luxon";
import type { Deps } from "../../deps.ts";
import { selectCalendarTimezone, selectCalendarTimezones, selectHolidays } from "./calendar.repo.ts";

/**
 * The workspace calendar (timezone and holidays; the Celebrations settings edit it). Every "today" of
 * reports, the feed, the MCP tools and new schedules' default zone comes from here.
 */

/** A saved calendar timezone when it is valid, else UTC (also for a workspace without a calendar). */
export function calendarZone(saved: string | null | undefined): string {
  return saved && IANAZone.isValidZone(saved) ? saved : "UTC";
}

/** The calendar's timezone when one is saved and valid, else UTC. */
export async function workspaceTimezone(deps: Pick<Deps, "db">, teamId: string): Promise<string> {
  return calendarZone(await selectCalendarTimezone(deps.db, teamId));
}

/** workspaceTimezone for many workspaces in one query: each one's calendar timezone when saved and valid, else UTC. */
export async function workspaceTimezones(deps: Pick<Deps, "db">, teamIds: string[]): Promise<Map<string, string>> {
  const saved = await selectCalendarTimezones(deps.db, teamIds);
  return new Map(
    teamIds.map((teamId) => {
      const tz = saved.get(teamId);
      return [teamId, tz && IANAZone.isValidZone(tz) ? tz : "UTC"];
    }),
  );
}

/** The `YYYY-MM-DD` date on the wall clocks of `timezone` at `now`. */
export function todayIn(timezone: string, now: Date): string {
  return DateTime.fromJSDate(now, { zone: timezone }).toISODate()!;
}

/** "Today" is the date in the workspace timezone, so Auckland and Los Angeles differ on the same instant. */
export async function workspaceToday(deps: Pick<Deps, "db" | "clock">, teamId: string): Promise<string> {
  return todayIn(await workspaceTimezone(deps, teamId), deps.clock.now());
}

/**
 * Who is asking about holidays: standups skip only the holidays a workspace admin set; Celebrations move before every
 * holiday, also a Celebrations admin's.
 */
export type HolidaysFor = "standups" | "celebrations";

/** Holidays of these workspaces between two dates (both included) that `use` observes, as team → set of YYYY-MM-DD. */
export async function holidaysBetween(
  deps: Pick<Deps, "db">,
  teamIds: string[],
  from: string,
  to: string,
  use: HolidaysFor,
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (teamIds.length === 0) return out;
  for (const h of await selectHolidays(deps.db, teamIds, from, to, use === "standups")) {
    const set = out.get(h.teamId) ?? new Set<string>();
    set.add(h.date);
    out.set(h.teamId, set);
  }
  return out;
}
