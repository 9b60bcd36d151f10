/**
 * Every date and time the dashboard shows, in one style:
 * - an instant in the viewer's zone, the zone named by its city: "27 Nov 2026, 13:14 Berlin";
 * - a standup's time in the standup's zone, and the viewer's clock beside it when it reads differently:
 *   "09:30 Berlin · 08:30 your time";
 * - calendar days (the API's YYYY-MM-DD, no zone) and ranges in words: "21 Dec 2026 – 4 Jan 2027".
 * The clock (12 or 24 hours) and word order follow the viewer's locale. Only Intl: the dashboard has no date library.
 * Every function takes `locale` and `zone` (the viewer's) so tests can pin both; pages leave them to the browser.
 */

export interface DateTimeOptions {
  /** BCP 47 locale; the browser's when absent. */
  locale?: string;
  /** The viewer's IANA zone; the browser's when absent. */
  zone?: string;
  /** "Now" for conversions that need today's date (a standup's time today); the real clock when absent. */
  now?: Date;
}

export function viewerZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Formatters are costly to build and the pages format hundreds of values: one per locale, zone and shape. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ""}|${JSON.stringify(options)}`;
  let hit = formatters.get(key);
  if (!hit) {
    hit = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, hit);
  }
  return hit;
}

/** Hours and minutes as the locale writes them: "09:30" (en-GB), "9:30 AM" (en-US). */
const CLOCK: Intl.DateTimeFormatOptions = { timeStyle: "short" };

/** "Europe/Berlin" → "Berlin", "America/Argentina/Buenos_Aires" → "Buenos Aires", "Etc/UTC" → "UTC". */
export function zoneName(zone: string): string {
  if (/^(Etc\/)?(UTC|GMT|UCT|Zulu|Universal|Greenwich)$/i.test(zone)) return "UTC";
  // POSIX signs are reversed: Etc/GMT+5 is five hours behind UTC.
  const etc = /^Etc\/GMT([+-])(\d{1,2})$/.exec(zone);
  if (etc) return `UTC${etc[1] === "+" ? "−" : "+"}${etc[2]}`;
  if (zone.startsWith("Etc/")) return zone.slice(4);
  return (zone.split("/").pop() ?? zone).replace(/_/g, " ");
}

function clockIn(at: Date, zone: string, locale: string | undefined): string {
  return formatter(locale, { ...CLOCK, timeZone: zone }).format(at);
}

function parseInstant(iso: string): Date | undefined {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** "27 Nov 2026, 13:14 Berlin" in the viewer's zone; "Never" for a missing instant. */
export function formatInstant(iso: string | null | undefined, o: DateTimeOptions = {}): string {
  if (!iso) return "Never";
  const d = parseInstant(iso);
  if (!d) return iso;
  const zone = o.zone ?? viewerZone();
  const day = formatter(o.locale, { day: "numeric", month: "short", year: "numeric", timeZone: zone }).format(d);
  return `${day}, ${clockIn(d, zone, o.locale)} ${zoneName(zone)}`;
}

/** "13:14 Berlin": the time of an instant whose day the page already shows. */
export function formatTimeOfDay(iso: string | null | undefined, o: DateTimeOptions = {}): string {
  const d = iso ? parseInstant(iso) : undefined;
  if (!d) return "";
  const zone = o.zone ?? viewerZone();
  return `${clockIn(d, zone, o.locale)} ${zoneName(zone)}`;
}

/** A wall-clock time ("09:30") on the locale's clock, no zone: "09:30" (en-GB), "9:30 AM" (en-US). */
export function formatClock(time: string, o: Pick<DateTimeOptions, "locale"> = {}): string {
  const match = /^(\d{1,2}):(\d{2})/.exec(time);
  if (!match) return time;
  const at = Date.UTC(1970, 0, 1, Number(match[1]), Number(match[2]));
  return formatter(o.locale, { ...CLOCK, timeZone: "UTC" }).format(at);
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export function dayInZone(at: Date, zone: string): string {
  return formatter("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: zone }).format(at);
}

/** Minutes a zone is ahead of UTC at an instant (negative west of Greenwich). */
function offsetMinutes(at: number, zone: string): number {
  const parts = formatter("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((wall - Math.floor(at / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall-clock time ("09:30") on a calendar day reads in a zone, by the scheduler's rule (so the page
 * says when the run really starts): a time that occurs twice (the autumn change) is its first occurrence; a time
 * the spring change skips is the first minute after the gap (02:30 on a 02:00→03:00 night is 03:00).
 */
export function wallTimeToInstant(date: string, time: string, zone: string): Date {
  const [y = 1970, m = 1, d = 1] = date.split("-").map(Number);
  const [hh = 0, mm = 0] = time.split(":").map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const wallAt = (t: number) => t + offsetMinutes(t, zone) * MINUTE_MS;
  // Any instant showing this wall time lies within ±14 h of it, so the offsets a day either side cover it.
  const offsets = [...new Set([wall - DAY_MS, wall, wall + DAY_MS].map((t) => offsetMinutes(t, zone)))];
  const exact = offsets
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((t) => wallAt(t) === wall)
    .sort((a, b) => a - b);
  if (exact[0] !== undefined) return new Date(exact[0]);
  // Skipped: between the two offsets' readings the wall clock only moves forward, so search for the gap's end.
  let before = wall - Math.max(...offsets) * MINUTE_MS;
  let after = wall - Math.min(...offsets) * MINUTE_MS;
  while (after - before > MINUTE_MS) {
    const middle = before + Math.floor((after - before) / MINUTE_MS / 2) * MINUTE_MS;
    if (wallAt(middle) >= wall) after = middle;
    else before = middle;
  }
  return new Date(after);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export interface StandupTimeParts {
  /** "09:30 Berlin": the time in the standup's zone. */
  standup: string;
  /** "08:30 your time", absent when the viewer's clock reads the same. */
  yours?: string;
}

/**
 * A standup's daily time ("09:30") in its zone, and the viewer's time for it on `date` (today in the standup's zone
 * by default: the difference changes when only one of the two zones changes to or from summer time).
 */
export function standupTimeParts(
  time: string,
  standupZone: string,
  o: DateTimeOptions & { date?: string } = {},
): StandupTimeParts {
  const date = o.date ?? dayInZone(o.now ?? new Date(), standupZone);
  const at = wallTimeToInstant(date, time, standupZone);
  const standup = `${clockIn(at, standupZone, o.locale)} ${zoneName(standupZone)}`;
  const zone = o.zone ?? viewerZone();
  const yours = clockIn(at, zone, o.locale);
  const shift = daysBetween(date, dayInZone(at, zone));
  if (shift === 0 && yours === clockIn(at, standupZone, o.locale)) return { standup };
  const day = shift < 0 ? ", the day before" : shift > 0 ? ", the day after" : "";
  return { standup, yours: `${yours} your time${day}` };
}

/** "09:30 Berlin · 08:30 your time"; "09:30 Berlin" when the viewer's clock reads the same. */
export function formatStandupTime(time: string, standupZone: string, o: DateTimeOptions & { date?: string } = {}) {
  const parts = standupTimeParts(time, standupZone, o);
  return parts.yours ? `${parts.standup} · ${parts.yours}` : parts.standup;
}

/**
 * An instant as a standup sees it, its day and time in the standup's zone, and the viewer's time beside it where it
 * reads differently: "Tue 3 Mar, 09:30 Berlin · 08:30 your time"; "… · Mon 23:30 your time" across midnight.
 */
export function formatStandupInstant(iso: string, standupZone: string, o: DateTimeOptions = {}): string {
  const at = parseInstant(iso);
  if (!at) return iso;
  const there = formatter(o.locale, { weekday: "short", day: "numeric", month: "short", timeZone: standupZone });
  const standup = `${there.format(at)}, ${clockIn(at, standupZone, o.locale)} ${zoneName(standupZone)}`;
  const zone = o.zone ?? viewerZone();
  const sameDay = dayInZone(at, zone) === dayInZone(at, standupZone);
  const clock = clockIn(at, zone, o.locale);
  const yours = sameDay ? clock : `${formatter(o.locale, { weekday: "short", timeZone: zone }).format(at)} ${clock}`;
  if (sameDay && yours === clockIn(at, standupZone, o.locale)) return standup;
  return `${standup} · ${yours} your time`;
}

/** A calendar day is a date without a zone: formatted at UTC midnight in UTC it never shifts. */
function calendarDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function isDay(date: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(calendarDay(date).getTime());
}

const DAY: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" };
const DATE: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" };
const LONG_DAY: Intl.DateTimeFormatOptions = {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
};

function formatCalendar(date: string, shape: Intl.DateTimeFormatOptions, locale: string | undefined): string {
  return isDay(date) ? formatter(locale, shape).format(calendarDay(date)) : date;
}

/** "Mon 2 Mar" */
export function formatDay(date: string, o: Pick<DateTimeOptions, "locale"> = {}): string {
  return formatCalendar(date, DAY, o.locale);
}

/** "2 Mar 2026" */
export function formatDate(date: string, o: Pick<DateTimeOptions, "locale"> = {}): string {
  return formatCalendar(date, DATE, o.locale);
}

/** "Monday, 2 March 2026" */
export function formatLongDay(date: string, o: Pick<DateTimeOptions, "locale"> = {}): string {
  return formatCalendar(date, LONG_DAY, o.locale);
}

/** "2 Mar", for chart axes. */
export function formatShortDay(date: string, o: Pick<DateTimeOptions, "locale"> = {}): string {
  return formatCalendar(date, { day: "numeric", month: "short", timeZone: "UTC" }, o.locale);
}

/**
 * Two calendar days in words, sharing what they share: "21 Dec 2026 – 4 Jan 2027", "21 – 25 Dec 2026", one day
 * alone when both are the same. With `weekday`: "Mon 21 Dec – Fri 25 Dec" (no year, for ranges near today).
 */
export function formatDayRange(
  from: string,
  to: string,
  o: Pick<DateTimeOptions, "locale"> & { weekday?: boolean } = {},
): string {
  if (!isDay(from) || !isDay(to)) return from === to ? from : `${from} – ${to}`;
  const [first, last] = from <= to ? [from, to] : [to, from];
  const text = formatter(o.locale, o.weekday ? DAY : DATE).formatRange(calendarDay(first), calendarDay(last));
  // ICU puts thin spaces around the dash; plain ones read the same and match what people type and search for.
  return text.replace(/\u2009/g, " ");
}
