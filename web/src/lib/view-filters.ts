import { query } from "./api.ts";

/**
 * The filters of Reports and Analytics as the address holds them (?days= or ?from=&to=, ?standup=, ?member=, ?q=),
 * so reload, back/forward and a shared link restore the view. The address is typed by people and pasted from
 * chats: a value that is not valid is dropped (the default applies) rather than sent to the API to fail.
 */

/** The periods Analytics offers (Reports links there only for these). */
export const ANALYTICS_DAYS: readonly number[] = [7, 14, 30, 90];
/** The server's longest window (MAX_WINDOW_DAYS in the API contract). */
const MAX_DAYS = 365;
/** The API's limit on search text. */
export const SEARCH_MAX = 200;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface ViewFilters {
  /** "Last N days" when no valid from–to range is given. */
  days: number;
  /** A custom range: both real dates, from not after to. */
  range?: { from: string; to: string } | undefined;
  standup?: string | undefined;
  member?: string | undefined;
  q?: string | undefined;
}

/** A real calendar date as YYYY-MM-DD (2026-02-31 is not). */
export function isRealDate(value: string | null): value is string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

const id = (value: string | null) => (value && ID.test(value) ? value : undefined);

/**
 * Reads the filters from the address. `allowedDays` limits "last N days" to the page's choices (Analytics has a
 * select of fixed periods); without it any 1–365 is taken.
 */
export function readFilters(
  search: URLSearchParams,
  opts: { defaultDays: number; allowedDays?: readonly number[]; customRange?: boolean },
): ViewFilters {
  const rawDays = search.get("days") ?? "";
  const n = /^\d{1,3}$/.test(rawDays) ? Number(rawDays) : Number.NaN;
  const validDays = opts.allowedDays ? opts.allowedDays.includes(n) : n >= 1 && n <= MAX_DAYS;
  const from = search.get("from");
  const to = search.get("to");
  const range =
    opts.customRange && isRealDate(from) && isRealDate(to) && from <= to && daysBetween(from, to) < MAX_DAYS
      ? { from, to }
      : undefined;
  const q = (search.get("q") ?? "").trim().slice(0, SEARCH_MAX);
  return {
    days: validDays ? n : opts.defaultDays,
    range,
    standup: id(search.get("standup")),
    member: id(search.get("member")),
    q: q || undefined,
  };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The page's address for these filters: a range replaces "last N days"; empty filters are left out. */
export function filtersPath(path: string, f: ViewFilters): string {
  const period = f.range ? { from: f.range.from, to: f.range.to } : { days: f.days };
  return `${path}${query({ ...period, standup: f.standup, member: f.member, q: f.q })}`;
}

/** The API's names for the filters (schedule_id, user_id), shared by /reports, /analytics and the CSV export. */
export function apiFilters(f: ViewFilters) {
  return { schedule_id: f.standup, user_id: f.member };
}
