/** Display helpers. Dates from the API are calendar days (YYYY-MM-DD) or UTC instants (ISO 8601). */

// Dates and times have their own module; pages keep importing them from here.
export {
  dayInZone,
  formatClock,
  formatDate,
  formatDay,
  formatDayRange,
  formatInstant,
  formatLongDay,
  formatShortDay,
  formatStandupInstant,
  formatStandupTime,
  formatTimeOfDay,
  standupTimeParts,
  zoneName,
} from "./datetime.ts";

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_LABELS: Record<Weekday, { short: string; long: string }> = {
  mon: { short: "Mon", long: "Monday" },
  tue: { short: "Tue", long: "Tuesday" },
  wed: { short: "Wed", long: "Wednesday" },
  thu: { short: "Thu", long: "Thursday" },
  fri: { short: "Fri", long: "Friday" },
  sat: { short: "Sat", long: "Saturday" },
  sun: { short: "Sun", long: "Sunday" },
};

/** Moods scored 5 to 1, as the server scores them. */
export const MOODS = [
  { emoji: "😀", label: "Great", score: 5 },
  { emoji: "🙂", label: "Good", score: 4 },
  { emoji: "😐", label: "Okay", score: 3 },
  { emoji: "😕", label: "Meh", score: 2 },
  { emoji: "😫", label: "Rough", score: 1 },
] as const;

export function moodLabel(emoji: string): string {
  return MOODS.find((m) => m.emoji === emoji)?.label ?? "";
}

export function parseDays(value: string): Weekday[] {
  const wanted = new Set(value.split(",").map((d) => d.trim().toLowerCase()));
  return WEEKDAYS.filter((d) => wanted.has(d));
}

/** "mon,tue,wed,thu,fri" → "Mon–Fri"; "mon,wed" → "Mon, Wed"; all seven → "Every day". */
export function describeDays(value: string): string {
  const days = parseDays(value);
  if (days.length === 7) return "Every day";
  if (days.length === 0) return "No days";
  const idx = days.map((d) => WEEKDAYS.indexOf(d));
  const consecutive = idx.every((n, i) => i === 0 || n === (idx[i - 1] ?? 0) + 1);
  const first = days[0]!;
  const last = days[days.length - 1]!;
  if (days.length >= 3 && consecutive) return `${WEEKDAY_LABELS[first].short}–${WEEKDAY_LABELS[last].short}`;
  return days.map((d) => WEEKDAY_LABELS[d].short).join(", ");
}

/** A calendar day (YYYY-MM-DD) at UTC midnight, for day arithmetic that never shifts with a zone. */
function calendarDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

export function todayIso(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function shiftIso(date: string, days: number): string {
  const d = calendarDay(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function isIsoDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(calendarDay(value).getTime());
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function trendWord(trend: "up" | "down" | "flat"): string {
  return trend === "up" ? "trending up" : trend === "down" ? "trending down" : "steady";
}
