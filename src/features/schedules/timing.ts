import { DateTime, IANAZone } from "luxon";

/**
 * Pure schedule timing: when a standup run for a local date starts, whether one is due at an instant,
 * and the validation/normalisation of the schedule fields (time, timezone, days). No I/O, no clock.
 */

export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";

export const WEEKDAYS: readonly Weekday[] = Object.freeze(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);

export interface ScheduleTiming {
  /** `HH:MM` wall time in `tz`. */
  time: string;
  /** IANA zone name. */
  tz: string;
  days: readonly Weekday[];
}

/** One run of a schedule: its local date (the run's identity, `standup_date`) and the UTC instant it starts. */
export interface DueRun {
  localDate: string;
  startsAt: DateTime;
}

export const DEFAULT_MAX_LATE_MINUTES = 180;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * Renamed zones from tzdb's `backward` file, as `legacy=current`. Node's ICU still reports many legacy
 * names as canonical (Asia/Kolkata resolves to Asia/Calcutta), so ICU's answer is passed through this
 * table too. Links that merely merge two countries' zones with identical clocks (Europe/Bratislava →
 * Europe/Prague) are deliberately absent: the country's own name is the one people expect to see.
 */
const ZONE_RENAMES_SOURCE = `
  UTC=UTC Etc/UTC=UTC Etc/UCT=UTC UCT=UTC Etc/Universal=UTC Universal=UTC Etc/Zulu=UTC Zulu=UTC
  GMT=UTC Etc/GMT=UTC Etc/GMT0=UTC Etc/GMT+0=UTC Etc/GMT-0=UTC GMT0=UTC GMT+0=UTC GMT-0=UTC
  Etc/Greenwich=UTC Greenwich=UTC
  Africa/Asmera=Africa/Asmara Africa/Timbuktu=Africa/Bamako
  America/Buenos_Aires=America/Argentina/Buenos_Aires America/Catamarca=America/Argentina/Catamarca
  America/Argentina/ComodRivadavia=America/Argentina/Catamarca America/Cordoba=America/Argentina/Cordoba
  America/Rosario=America/Argentina/Cordoba America/Jujuy=America/Argentina/Jujuy
  America/Mendoza=America/Argentina/Mendoza America/Indianapolis=America/Indiana/Indianapolis
  America/Fort_Wayne=America/Indiana/Indianapolis America/Knox_IN=America/Indiana/Knox
  America/Louisville=America/Kentucky/Louisville America/Godthab=America/Nuuk America/Atka=America/Adak
  America/Ensenada=America/Tijuana America/Santa_Isabel=America/Tijuana America/Montreal=America/Toronto
  America/Nipigon=America/Toronto America/Thunder_Bay=America/Toronto America/Pangnirtung=America/Iqaluit
  America/Porto_Acre=America/Rio_Branco America/Rainy_River=America/Winnipeg America/Shiprock=America/Denver
  America/Yellowknife=America/Edmonton America/Virgin=America/St_Thomas America/Coral_Harbour=America/Atikokan
  Antarctica/South_Pole=Antarctica/McMurdo Atlantic/Faeroe=Atlantic/Faroe Atlantic/Jan_Mayen=Arctic/Longyearbyen
  Asia/Calcutta=Asia/Kolkata Asia/Saigon=Asia/Ho_Chi_Minh Asia/Katmandu=Asia/Kathmandu Asia/Rangoon=Asia/Yangon
  Asia/Dacca=Asia/Dhaka Asia/Ashkhabad=Asia/Ashgabat Asia/Chongqing=Asia/Shanghai Asia/Chungking=Asia/Shanghai
  Asia/Harbin=Asia/Shanghai Asia/Kashgar=Asia/Urumqi Asia/Macao=Asia/Macau Asia/Thimbu=Asia/Thimphu
  Asia/Ujung_Pandang=Asia/Makassar Asia/Ulan_Bator=Asia/Ulaanbaatar Asia/Choibalsan=Asia/Ulaanbaatar
  Asia/Tel_Aviv=Asia/Jerusalem Asia/Istanbul=Europe/Istanbul
  Europe/Kiev=Europe/Kyiv Europe/Uzhgorod=Europe/Kyiv Europe/Zaporozhye=Europe/Kyiv Europe/Belfast=Europe/London
  Europe/Tiraspol=Europe/Chisinau Europe/Nicosia=Asia/Nicosia
  Pacific/Truk=Pacific/Chuuk Pacific/Yap=Pacific/Chuuk Pacific/Ponape=Pacific/Pohnpei
  Pacific/Enderbury=Pacific/Kanton Pacific/Samoa=Pacific/Pago_Pago Pacific/Johnston=Pacific/Honolulu
  US/Eastern=America/New_York US/Central=America/Chicago US/Mountain=America/Denver US/Pacific=America/Los_Angeles
  US/Alaska=America/Anchorage US/Hawaii=Pacific/Honolulu US/Arizona=America/Phoenix US/Aleutian=America/Adak
  US/East-Indiana=America/Indiana/Indianapolis US/Indiana-Starke=America/Indiana/Knox US/Michigan=America/Detroit
  US/Samoa=Pacific/Pago_Pago Navajo=America/Denver
  Canada/Atlantic=America/Halifax Canada/Central=America/Winnipeg Canada/Eastern=America/Toronto
  Canada/Mountain=America/Edmonton Canada/Newfoundland=America/St_Johns Canada/Pacific=America/Vancouver
  Canada/Saskatchewan=America/Regina Canada/Yukon=America/Whitehorse
  Mexico/BajaNorte=America/Tijuana Mexico/BajaSur=America/Mazatlan Mexico/General=America/Mexico_City
  Brazil/Acre=America/Rio_Branco Brazil/DeNoronha=America/Noronha Brazil/East=America/Sao_Paulo
  Brazil/West=America/Manaus Chile/Continental=America/Santiago Chile/EasterIsland=Pacific/Easter
  Australia/ACT=Australia/Sydney Australia/Canberra=Australia/Sydney Australia/NSW=Australia/Sydney
  Australia/Currie=Australia/Hobart Australia/Tasmania=Australia/Hobart Australia/LHI=Australia/Lord_Howe
  Australia/North=Australia/Darwin Australia/Queensland=Australia/Brisbane Australia/South=Australia/Adelaide
  Australia/Victoria=Australia/Melbourne Australia/West=Australia/Perth Australia/Yancowinna=Australia/Broken_Hill
  GB=Europe/London GB-Eire=Europe/London Eire=Europe/Dublin Poland=Europe/Warsaw Portugal=Europe/Lisbon
  Turkey=Europe/Istanbul W-SU=Europe/Moscow Iceland=Atlantic/Reykjavik Egypt=Africa/Cairo Libya=Africa/Tripoli
  Cuba=America/Havana Jamaica=America/Jamaica Hongkong=Asia/Hong_Kong Iran=Asia/Tehran Israel=Asia/Jerusalem
  Japan=Asia/Tokyo PRC=Asia/Shanghai ROC=Asia/Taipei ROK=Asia/Seoul Singapore=Asia/Singapore
  Kwajalein=Pacific/Kwajalein NZ=Pacific/Auckland NZ-CHAT=Pacific/Chatham
`;

export const ZONE_RENAMES: ReadonlyMap<string, string> = new Map(
  ZONE_RENAMES_SOURCE.trim()
    .split(/\s+/)
    .map((pair) => pair.split("=") as [string, string]),
);

// Region/City shape only: keeps out offsets ("+05:00") that newer Intl engines would accept as zones.
const ZONE_NAME_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The current canonical IANA name for `name` ("Asia/Calcutta" → "Asia/Kolkata", "Etc/UTC" → "UTC"), or null. */
export function canonicalTimezone(name: string): string | null {
  const trimmed = name.trim();
  if (!ZONE_NAME_SHAPE.test(trimmed) || trimmed.toLowerCase() === "local") return null;
  if (!IANAZone.isValidZone(trimmed)) return null;
  let resolved: string;
  try {
    // ICU fixes the case ("america/new_york") and folds most links onto one name.
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return ZONE_RENAMES.get(resolved) ?? ZONE_RENAMES.get(trimmed) ?? resolved;
}

/** Parses "mon,wed,fri" (case and spaces tolerated) or an array of tokens into de-duplicated week order. */
export function parseDays(input: string | readonly string[]): Weekday[] | null {
  const tokens = typeof input === "string" ? input.split(",") : input;
  const wanted = new Set<Weekday>();
  for (const token of tokens) {
    const day = token.trim().toLowerCase();
    if (!isWeekday(day)) return null;
    wanted.add(day);
  }
  if (wanted.size === 0) return null;
  return WEEKDAYS.filter((day) => wanted.has(day));
}

/** The stored form of schedule_days: "mon,tue", in week order. */
export function formatDays(days: readonly Weekday[]): string {
  return WEEKDAYS.filter((day) => days.includes(day)).join(",");
}

function isWeekday(value: string): value is Weekday {
  return (WEEKDAYS as readonly string[]).includes(value);
}

/** Strict `HH:MM` (two digits each), 00:00–23:59. */
export function parseTime(s: string): { hour: number; minute: number } | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(s);
  if (!match) return null;
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/** The `YYYY-MM-DD` calendar date of `instant` on the wall clocks of `tz`. */
export function localDateOf(instant: DateTime | Date, tz: string): string {
  const inZone = instant instanceof Date ? DateTime.fromJSDate(instant, { zone: tz }) : instant.setZone(tz);
  const date = inZone.toISODate();
  if (date === null) throw new Error(`Cannot take a local date in zone "${tz}"`);
  return date;
}

/**
 * The UTC instant the run for `localDate` starts. A wall time inside a DST gap starts at the first minute
 * after the gap (02:30 on a 02:00→03:00 night starts at 03:00, unlike Luxon's fromObject, which would shift
 * it to 03:30); a wall time that occurs twice starts at its first occurrence.
 * Throws on an invalid time, zone or date: schedules are validated when they are saved.
 */
export function runStartFor(timing: Pick<ScheduleTiming, "time" | "tz">, localDate: string): DateTime {
  const time = parseTime(timing.time);
  if (time === null) throw new Error(`Invalid schedule time "${timing.time}"`);
  const zone = IANAZone.create(timing.tz);
  if (!zone.isValid) throw new Error(`Invalid schedule timezone "${timing.tz}"`);
  const date = DateTime.fromISO(localDate, { zone: "utc" });
  if (!date.isValid || !/^\d{4}-\d{2}-\d{2}$/.test(localDate)) throw new Error(`Invalid local date "${localDate}"`);

  // The wall time written as if it were UTC; an instant t shows this wall time when t + offset(t) === wallMs.
  const wallMs = Date.UTC(date.year, date.month - 1, date.day, time.hour, time.minute);
  const wallAt = (t: number) => t + zone.offset(t) * MINUTE_MS;
  // Any instant showing this wall time lies within ±14 h of wallMs, so the offsets a day either side cover it.
  const offsets = [...new Set([wallMs - DAY_MS, wallMs, wallMs + DAY_MS].map((t) => zone.offset(t)))];
  const exact = offsets
    .map((offset) => wallMs - offset * MINUTE_MS)
    .filter((t) => wallAt(t) === wallMs)
    .sort((a, b) => a - b);
  const startMs = exact[0] ?? firstInstantAfterGap(wallAt, wallMs, offsets);
  return DateTime.fromMillis(startMs, { zone: "utc" });
}

/**
 * The wall time is skipped, so the earliest whole minute whose wall time is past it is the end of the gap.
 * Between the two offsets' readings the wall clock only moves forward, so a binary search is sound.
 */
function firstInstantAfterGap(wallAt: (t: number) => number, wallMs: number, offsets: number[]): number {
  let before = wallMs - Math.max(...offsets) * MINUTE_MS;
  let after = wallMs - Math.min(...offsets) * MINUTE_MS;
  while (after - before > MINUTE_MS) {
    const middle = before + Math.floor((after - before) / MINUTE_MS / 2) * MINUTE_MS;
    if (wallAt(middle) >= wallMs) after = middle;
    else before = middle;
  }
  return after;
}

function weekdayOf(localDate: string): Weekday {
  return WEEKDAYS[DateTime.fromISO(localDate, { zone: "utc" }).weekday - 1]!;
}

function shiftDate(localDate: string, days: number): string {
  return DateTime.fromISO(localDate, { zone: "utc" }).plus({ days }).toISODate()!;
}

function runsOn(timing: ScheduleTiming, localDate: string, isHoliday: (localDate: string) => boolean): boolean {
  return timing.days.includes(weekdayOf(localDate)) && !isHoliday(localDate);
}

/**
 * The run that should start at `now`, if any. Candidates are today and yesterday in the schedule's zone
 * (yesterday so a 23:50 run is still caught up after midnight); the most recent one that runs on its date
 * and has started wins. It is `due` while less than `maxLateMinutes` late (exactly 180 minutes late is
 * already `missed`). Only today's run is ever reported `missed`, so the previous day's run does not
 * resurface on every tick until today's starts; a missed run should be logged and skipped. Until the next
 * run, every tick reports the same run again, so the caller dedupes by `localDate`.
 */
export function dueRun(
  timing: ScheduleTiming,
  now: DateTime,
  opts: { isHoliday: (localDate: string) => boolean; maxLateMinutes?: number },
): { due: DueRun } | { missed: DueRun } | null {
  const maxLateMs = (opts.maxLateMinutes ?? DEFAULT_MAX_LATE_MINUTES) * MINUTE_MS;
  const today = localDateOf(now, timing.tz);
  for (const localDate of [today, shiftDate(today, -1)]) {
    if (!runsOn(timing, localDate, opts.isHoliday)) continue;
    const startsAt = runStartFor(timing, localDate);
    const lateMs = now.toMillis() - startsAt.toMillis();
    if (lateMs < 0) continue;
    const run: DueRun = { localDate, startsAt };
    if (lateMs < maxLateMs) return { due: run };
    return localDate === today ? { missed: run } : null;
  }
  return null;
}

/**
 * The first run that starts strictly after `now`, looking at local dates from today up to `horizonDays`
 * days ahead; null when every one of them is off or a holiday.
 */
export function nextRunAfter(
  timing: ScheduleTiming,
  now: DateTime,
  isHoliday: (localDate: string) => boolean,
  horizonDays = 14,
): DueRun | null {
  const today = localDateOf(now, timing.tz);
  for (let ahead = 0; ahead <= horizonDays; ahead++) {
    const localDate = shiftDate(today, ahead);
    if (!runsOn(timing, localDate, isHoliday)) continue;
    const startsAt = runStartFor(timing, localDate);
    if (startsAt.toMillis() > now.toMillis()) return { localDate, startsAt };
  }
  return null;
}
