import type { CelebrationKind } from "../../db/schema.ts";
import { shiftDate } from "../calendar/index.ts";

/**
 * When celebrations happen: pure functions of dates (`YYYY-MM-DD`), the working days and the holidays. A
 * celebration whose date is not a working day, or is a holiday, is posted on the working day before it.
 */

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** How far back a posting day is looked for: a year of holidays and days off is not a calendar anyone keeps. */
export const MAX_SHIFT_DAYS = 366;

export interface WorkCalendar {
  workingDays: readonly Weekday[];
  holidays: ReadonlySet<string>;
}

/** A date's weekday. With the Date built-ins, not Luxon: the upcoming list asks this for thousands of days. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;
}

export function isWorkingDay(date: string, cal: WorkCalendar): boolean {
  return cal.workingDays.includes(weekdayOf(date)) && !cal.holidays.has(date);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The date a yearly celebration of month/day falls on in `year`: 29 February is 28 February in other years. */
export function dateInYear(month: number, day: number, year: number): string {
  const d = month === 2 && day === 29 && !isLeap(year) ? 28 : day;
  return `${year}-${pad(month)}-${pad(d)}`;
}

/** The working day a celebration on `date` is posted: that day, or the last working day before it. */
export function postDateFor(date: string, cal: WorkCalendar): string | undefined {
  let d = date;
  for (let i = 0; i <= MAX_SHIFT_DAYS; i++, d = shiftDate(d, -1)) {
    if (isWorkingDay(d, cal)) return d;
  }
  return undefined;
}

/**
 * The dates celebrated in the post of working day `today`: today and every following day that is not a working day
 * (a weekend, a holiday), up to the next working day. Empty when today is not a working day.
 */
export function datesPostedOn(today: string, cal: WorkCalendar): string[] {
  if (!isWorkingDay(today, cal)) return [];
  const out = [today];
  for (let d = shiftDate(today, 1); out.length <= MAX_SHIFT_DAYS && !isWorkingDay(d, cal); d = shiftDate(d, 1)) {
    out.push(d);
  }
  return out;
}

/** A member's dates as the profiles table keeps them. */
export interface PersonDates {
  userId: string;
  name: string;
  birthMonth: number | null;
  birthDay: number | null;
  startDate: string | null;
}

export interface Celebration {
  userId: string;
  name: string;
  kind: CelebrationKind;
  /** Whole years since the start date (anniversaries); null for birthdays. */
  years: number | null;
  /** The date celebrated this year (29 February birthdays: 28 February in other years). */
  date: string;
}

/** Every celebration of `kind` falling on `date`: birthdays, and anniversaries of one whole year and more. */
export function celebrationsOn(date: string, people: readonly PersonDates[], kind: CelebrationKind): Celebration[] {
  const year = Number(date.slice(0, 4));
  const out: Celebration[] = [];
  for (const p of people) {
    if (kind === "birthday") {
      if (p.birthMonth !== null && p.birthDay !== null && dateInYear(p.birthMonth, p.birthDay, year) === date) {
        out.push({ userId: p.userId, name: p.name, kind, years: null, date });
      }
    } else if (p.startDate) {
      const [sy, sm, sd] = p.startDate.split("-").map(Number) as [number, number, number];
      const years = year - sy;
      if (years >= 1 && dateInYear(sm, sd, year) === date)
        out.push({ userId: p.userId, name: p.name, kind, years, date });
    }
  }
  return out;
}

/**
 * celebrationsOn for every date of [from, to] at once, by date (dates without one are absent): each person's date is
 * worked out once per year of the range instead of once per day, in the same order as celebrationsOn lists them.
 */
export function celebrationsBetween(
  from: string,
  to: string,
  people: readonly PersonDates[],
  kind: CelebrationKind,
): Map<string, Celebration[]> {
  const out = new Map<string, Celebration[]>();
  const add = (date: string, c: Celebration) => {
    const list = out.get(date);
    if (list) list.push(c);
    else out.set(date, [c]);
  };
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const p of people) {
      if (kind === "birthday") {
        if (p.birthMonth === null || p.birthDay === null) continue;
        const date = dateInYear(p.birthMonth, p.birthDay, year);
        if (date >= from && date <= to) add(date, { userId: p.userId, name: p.name, kind, years: null, date });
      } else if (p.startDate) {
        const [sy, sm, sd] = p.startDate.split("-").map(Number) as [number, number, number];
        const years = year - sy;
        const date = dateInYear(sm, sd, year);
        if (years >= 1 && date >= from && date <= to) add(date, { userId: p.userId, name: p.name, kind, years, date });
      }
    }
  }
  return out;
}
