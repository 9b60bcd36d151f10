import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { workspaceCalendars } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { badRequest } from "../../http/errors.ts";

export interface DateWindow {
  from: string;
  to: string;
  /** Calendar days in the window, both ends included. */
  totalDays: number;
}

export const MAX_DAYS = 365;
export const MAX_SPAN_DAYS = 366;

/** The workspace timezone: the calendar setting (Celebrations), else UTC. */
export async function workspaceTimezone(deps: Pick<Deps, "db">, teamId: string): Promise<string> {
  const [row] = await deps.db
    .select({ tz: workspaceCalendars.timezone })
    .from(workspaceCalendars)
    .where(eq(workspaceCalendars.teamId, teamId));
  return row?.tz || "UTC";
}

/** "Today" is the date in the workspace timezone, so Auckland and Los Angeles differ on the same instant. */
export async function workspaceToday(deps: Pick<Deps, "db" | "clock">, teamId: string): Promise<string> {
  return DateTime.fromJSDate(deps.clock.now(), { zone: await workspaceTimezone(deps, teamId) }).toISODate()!;
}

export function shiftDate(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: "utc" }).plus({ days }).toISODate()!;
}

export function daysBetween(from: string, to: string): number {
  return (
    Math.round(DateTime.fromISO(to, { zone: "utc" }).diff(DateTime.fromISO(from, { zone: "utc" }), "days").days) + 1
  );
}

function parseDate(name: string, value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (
    typeof value !== "string" ||
    !/^\d{4}-\d{2}-\d{2}$/.test(value) ||
    !DateTime.fromISO(value, { zone: "utc" }).isValid
  ) {
    throw badRequest(`${name} must be a real date as YYYY-MM-DD`);
  }
  return value;
}

export function parseDays(value: unknown, fallback: number, max = MAX_DAYS): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "number" ? value : /^\d{1,6}$/.test(String(value)) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`days must be a whole number from 1 to ${max}`);
  return n;
}

/**
 * `days` counts back from today inclusive; `from`/`to` override it (one alone is anchored by `days`).
 * Every bad value is a 400 naming the parameter.
 */
export function resolveWindow(
  query: { days?: unknown; from?: unknown; to?: unknown },
  today: string,
  opts: { defaultDays: number; maxSpan?: number } = { defaultDays: 7 },
): DateWindow {
  const days = parseDays(query.days, opts.defaultDays);
  let from = parseDate("from", query.from);
  let to = parseDate("to", query.to);
  if (!from && !to) {
    to = today;
    from = shiftDate(today, -(days - 1));
  } else if (!from) {
    from = shiftDate(to!, -(days - 1));
  } else if (!to) {
    to = from > today ? from : today;
  }
  if (from! > to!) throw badRequest("from must not be after to");
  const totalDays = daysBetween(from!, to!);
  const maxSpan = opts.maxSpan ?? MAX_SPAN_DAYS;
  if (totalDays > maxSpan) throw badRequest(`from and to may span at most ${maxSpan} days`);
  return { from: from!, to: to!, totalDays };
}
