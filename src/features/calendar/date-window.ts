import { DateTime } from "luxon";
import { isRealDate, MAX_WINDOW_DAYS } from "../../contract/index.ts";
import { badRequest } from "../../http/errors.ts";

export { isRealDate };

/**
 * Date windows for reports, analytics, the CSV export and the MCP tools: `YYYY-MM-DD` calendar dates in the
 * workspace timezone, both ends included. Pure; "today" comes from the caller (see workspaceToday).
 */

export interface DateWindow {
  from: string;
  to: string;
  /** Calendar days in the window, both ends included. */
  totalDays: number;
}

/** The longest look-back a `days` argument may ask for, on the dashboard and in the MCP tools. */
export const MAX_DAYS = MAX_WINDOW_DAYS;
/** The widest explicit from/to range a report or analytics query may span. */
export const MAX_SPAN_DAYS = 366;

export function shiftDate(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: "utc" }).plus({ days }).toISODate()!;
}

export function daysBetween(from: string, to: string): number {
  return (
    Math.round(DateTime.fromISO(to, { zone: "utc" }).diff(DateTime.fromISO(from, { zone: "utc" }), "days").days) + 1
  );
}

/**
 * Fills in the missing ends: without either, the `days` days up to today; a lone `to` reaches `days` back;
 * a lone `from` runs to today (or stays a single day when it is in the future). Does not check the order
 * or the span: callers answer those in their own words.
 */
export function completeWindow(ends: { from?: string; to?: string }, today: string, days: number): DateWindow {
  const to = ends.to ?? (ends.from && ends.from > today ? ends.from : today);
  const from = ends.from ?? shiftDate(to, -(days - 1));
  return { from, to, totalDays: daysBetween(from, to) };
}

function parseDate(name: string, value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string" || !isRealDate(value)) throw badRequest(`${name} must be a real date as YYYY-MM-DD`);
  return value;
}

export function parseDays(value: unknown, fallback: number, max = MAX_DAYS): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "number" ? value : /^\d{1,6}$/.test(String(value)) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`days must be a whole number from 1 to ${max}`);
  return n;
}

/**
 * A dashboard query's window: `days` counts back from today inclusive; `from`/`to` override it (one alone
 * is anchored by `days`). Every bad value is a 400 naming the parameter.
 */
export function resolveWindow(
  query: { days?: unknown; from?: unknown; to?: unknown },
  today: string,
  opts: { defaultDays: number; maxSpan?: number } = { defaultDays: 7 },
): DateWindow {
  const days = parseDays(query.days, opts.defaultDays);
  const from = parseDate("from", query.from);
  const to = parseDate("to", query.to);
  const w = completeWindow({ from, to }, today, days);
  if (w.from > w.to) throw badRequest("from must not be after to");
  const maxSpan = opts.maxSpan ?? MAX_SPAN_DAYS;
  if (w.totalDays > maxSpan) throw badRequest(`from and to may span at most ${maxSpan} days`);
  return w;
}
