import { and, eq, sql } from "drizzle-orm";
import { anyOf } from "../../db/arrays.ts";
import type { Executor } from "../../db/client.ts";
import { holidays, workspaceCalendars } from "../../db/schema.ts";

/** The workspace calendar's timezone as saved; undefined when the workspace has none. */
export async function selectCalendarTimezone(ex: Executor, teamId: string): Promise<string | undefined> {
  const [row] = await ex
    .select({ timezone: workspaceCalendars.timezone })
    .from(workspaceCalendars)
    .where(eq(workspaceCalendars.teamId, teamId))
    .limit(1);
  return row?.timezone;
}

/** Holidays between two dates (both included); only those standups skip when `standupsOnly`. */
export async function selectHolidays(
  ex: Executor,
  teamIds: string[],
  from: string,
  to: string,
  standupsOnly: boolean,
): Promise<{ teamId: string; date: string }[]> {
  return ex
    .select({ teamId: holidays.teamId, date: holidays.date })
    .from(holidays)
    .where(
      and(
        anyOf(holidays.teamId, teamIds),
        sql`${holidays.date} between ${from} and ${to}`,
        standupsOnly ? eq(holidays.skipsStandups, true) : undefined,
      ),
    );
}

/** The saved calendar timezones of these workspaces; workspaces without one are absent. */
export async function selectCalendarTimezones(ex: Executor, teamIds: string[]): Promise<Map<string, string>> {
  if (teamIds.length === 0) return new Map();
  const found = await ex
    .select({ teamId: workspaceCalendars.teamId, timezone: workspaceCalendars.timezone })
    .from(workspaceCalendars)
    .where(anyOf(workspaceCalendars.teamId, teamIds));
  return new Map(found.map((r) => [r.teamId, r.timezone]));
}
