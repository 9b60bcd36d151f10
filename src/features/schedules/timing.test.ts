import { DateTime, IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import {
  canonicalTimezone,
  dueRun,
  formatDays,
  localDateOf,
  nextRunAfter,
  parseDays,
  parseTime,
  runStartFor,
  type ScheduleTiming,
  WEEKDAYS,
  ZONE_RENAMES,
} from "./timing.ts";

const utc = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });
const noHolidays = { isHoliday: () => false };
const everyDay = [...WEEKDAYS];

describe("canonicalTimezone", () => {
  it.each([
    ["America/New_York", "America/New_York"],
    ["america/new_york", "America/New_York"],
    [" Europe/Berlin ", "Europe/Berlin"],
    ["Asia/Kolkata", "Asia/Kolkata"],
    ["Asia/Calcutta", "Asia/Kolkata"],
    ["Asia/Saigon", "Asia/Ho_Chi_Minh"],
    ["Asia/Katmandu", "Asia/Kathmandu"],
    ["Asia/Rangoon", "Asia/Yangon"],
    ["Asia/Dacca", "Asia/Dhaka"],
    ["Europe/Kiev", "Europe/Kyiv"],
    ["Europe/Kyiv", "Europe/Kyiv"],
    ["Europe/Zaporozhye", "Europe/Kyiv"],
    ["America/Buenos_Aires", "America/Argentina/Buenos_Aires"],
    ["Pacific/Truk", "Pacific/Chuuk"],
    ["Atlantic/Faeroe", "Atlantic/Faroe"],
    ["America/Godthab", "America/Nuuk"],
    ["US/Eastern", "America/New_York"],
    ["US/Central", "America/Chicago"],
    ["US/Mountain", "America/Denver"],
    ["US/Pacific", "America/Los_Angeles"],
    ["US/Alaska", "America/Anchorage"],
    ["US/Hawaii", "Pacific/Honolulu"],
    ["Canada/Eastern", "America/Toronto"],
    ["Canada/Pacific", "America/Vancouver"],
    ["Canada/Newfoundland", "America/St_Johns"],
    ["GB", "Europe/London"],
    ["UTC", "UTC"],
    ["Etc/UTC", "UTC"],
    ["GMT", "UTC"],
    ["utc", "UTC"],
    ["Etc/GMT+5", "Etc/GMT+5"],
    ["Europe/Bratislava", "Europe/Bratislava"],
  ])("%s → %s", (input, expected) => {
    expect(canonicalTimezone(input)).toBe(expected);
  });

  it.each(["", "local", "Local", "+05:00", "-03:00", "UTC+5", "GMT+05:00", "Mars/Olympus_Mons", "America/New York"])(
    "rejects %j",
    (input) => {
      expect(canonicalTimezone(input)).toBeNull();
    },
  );

  it("maps every zone Node knows to a valid name that is its own canonical form", () => {
    for (const zone of Intl.supportedValuesOf("timeZone")) {
      const canonical = canonicalTimezone(zone);
      expect(canonical, zone).not.toBeNull();
      expect(IANAZone.isValidZone(canonical!), zone).toBe(true);
      expect(canonicalTimezone(canonical!), zone).toBe(canonical);
    }
  });

  it("only renames to valid zones that keep the same clock", () => {
    const probe = Date.parse("2026-01-15T12:00:00Z");
    const summer = Date.parse("2026-07-15T12:00:00Z");
    for (const [legacy, current] of ZONE_RENAMES) {
      expect(IANAZone.isValidZone(current), current).toBe(true);
      for (const at of [probe, summer]) {
        expect(IANAZone.create(current).offset(at), legacy).toBe(IANAZone.create(legacy).offset(at));
      }
    }
  });
});

describe("parseDays / formatDays", () => {
  it("parses a comma list with spaces and case into week order without duplicates", () => {
    expect(parseDays("fri, Mon ,WED,mon")).toEqual(["mon", "wed", "fri"]);
    expect(parseDays(["sun", "sat", "sun"])).toEqual(["sat", "sun"]);
  });

  it.each([[""], [" "], [[]], ["mon,,wed"], ["mon,funday"], ["monday"], [["mon", "xyz"]]])("rejects %j", (input) => {
    expect(parseDays(input)).toBeNull();
  });

  it("formats in week order", () => {
    expect(formatDays(["tue", "mon"])).toBe("mon,tue");
    expect(formatDays(WEEKDAYS)).toBe("mon,tue,wed,thu,fri,sat,sun");
  });
});

describe("parseTime", () => {
  it.each([
    ["00:00", { hour: 0, minute: 0 }],
    ["09:05", { hour: 9, minute: 5 }],
    ["23:59", { hour: 23, minute: 59 }],
  ])("parses %s", (input, expected) => {
    expect(parseTime(input)).toEqual(expected);
  });

  it.each(["24:00", "9:00", "09:5", "09:60", "0900", "09:00:00", " 09:00", "ab:cd", ""])("rejects %j", (input) => {
    expect(parseTime(input)).toBeNull();
  });
});

describe("localDateOf", () => {
  it("reads the calendar date on the zone's wall clock", () => {
    expect(localDateOf(utc("2026-03-09T03:30:00Z"), "America/New_York")).toBe("2026-03-08");
    expect(localDateOf(new Date("2026-03-09T03:30:00Z"), "Asia/Tokyo")).toBe("2026-03-09");
  });
});

describe("runStartFor", () => {
  const startIso = (time: string, tz: string, localDate: string) => runStartFor({ time, tz }, localDate).toISO();

  it("starts at the wall time on ordinary days", () => {
    expect(startIso("09:00", "America/New_York", "2026-03-09")).toBe("2026-03-09T13:00:00.000Z");
    expect(startIso("09:00", "Asia/Kathmandu", "2026-06-01")).toBe("2026-06-01T03:15:00.000Z");
  });

  it("moves a time in the spring-forward gap to the first minute after it, not by the gap length", () => {
    expect(startIso("02:30", "America/New_York", "2026-03-08")).toBe("2026-03-08T07:00:00.000Z");
    expect(startIso("02:00", "America/New_York", "2026-03-08")).toBe("2026-03-08T07:00:00.000Z");
    expect(startIso("02:59", "America/New_York", "2026-03-08")).toBe("2026-03-08T07:00:00.000Z");
    expect(startIso("03:00", "America/New_York", "2026-03-08")).toBe("2026-03-08T07:00:00.000Z");
    expect(startIso("02:30", "Europe/Berlin", "2026-03-29")).toBe("2026-03-29T01:00:00.000Z");
  });

  it("uses the first occurrence of a repeated wall time", () => {
    expect(startIso("01:30", "America/New_York", "2026-11-01")).toBe("2026-11-01T05:30:00.000Z");
    expect(startIso("02:30", "Europe/Berlin", "2026-10-25")).toBe("2026-10-25T00:30:00.000Z");
  });

  it("handles Lord Howe's 30-minute shift", () => {
    const start = runStartFor({ time: "02:15", tz: "Australia/Lord_Howe" }, "2026-10-04");
    expect(start.setZone("Australia/Lord_Howe").toFormat("yyyy-MM-dd HH:mm")).toBe("2026-10-04 02:30");
    expect(start.toISO()).toBe("2026-10-03T15:30:00.000Z");
  });

  it("throws on values that validation should have rejected", () => {
    expect(() => runStartFor({ time: "25:00", tz: "UTC" }, "2026-01-01")).toThrow();
    expect(() => runStartFor({ time: "09:00", tz: "Nowhere/Else" }, "2026-01-01")).toThrow();
    expect(() => runStartFor({ time: "09:00", tz: "UTC" }, "2026-02-30")).toThrow();
  });
});

describe("dueRun", () => {
  const springGap: ScheduleTiming = { time: "02:30", tz: "America/New_York", days: everyDay };

  it("starts a gap time exactly once, at the end of the gap", () => {
    expect(dueRun(springGap, utc("2026-03-08T06:59:00Z"), noHolidays)).toBeNull();
    const atStart = dueRun(springGap, utc("2026-03-08T07:00:00Z"), noHolidays);
    expect(atStart).toEqual({ due: { localDate: "2026-03-08", startsAt: utc("2026-03-08T07:00:00Z") } });
    const later = dueRun(springGap, utc("2026-03-08T07:30:00Z"), noHolidays);
    expect(later && "due" in later && later.due.localDate).toBe("2026-03-08");
  });

  it("treats the second pass through a repeated hour as the same run", () => {
    const fallBack: ScheduleTiming = { time: "01:30", tz: "America/New_York", days: everyDay };
    expect(dueRun(fallBack, utc("2026-11-01T05:29:00Z"), noHolidays)).toBeNull();
    const first = dueRun(fallBack, utc("2026-11-01T05:30:00Z"), noHolidays);
    const second = dueRun(fallBack, utc("2026-11-01T06:30:00Z"), noHolidays);
    expect(first).toEqual({ due: { localDate: "2026-11-01", startsAt: utc("2026-11-01T05:30:00Z") } });
    expect(second).toEqual(first);
  });

  it("skips weekdays that are not listed", () => {
    const weekdays: ScheduleTiming = { time: "09:00", tz: "Europe/Berlin", days: ["mon", "tue", "wed", "thu", "fri"] };
    // 09:30 Berlin on Saturday 2026-03-07, then on Friday 2026-03-06.
    expect(dueRun(weekdays, utc("2026-03-07T08:30:00Z"), noHolidays)).toBeNull();
    expect(dueRun(weekdays, utc("2026-03-06T08:30:00Z"), noHolidays)).toMatchObject({
      due: { localDate: "2026-03-06" },
    });
  });

  it("skips holidays", () => {
    const daily: ScheduleTiming = { time: "09:00", tz: "Europe/Berlin", days: everyDay };
    const isHoliday = (localDate: string) => localDate === "2026-12-25";
    expect(dueRun(daily, utc("2026-12-25T08:30:00Z"), { isHoliday })).toBeNull();
    expect(dueRun(daily, utc("2026-12-25T11:30:00Z"), { isHoliday })).toBeNull();
    expect(dueRun(daily, utc("2026-12-24T08:30:00Z"), { isHoliday })).toMatchObject({ due: {} });
  });

  it("catches up a run less than three hours late and reports it missed after that", () => {
    const daily: ScheduleTiming = { time: "09:00", tz: "UTC", days: everyDay };
    const run = { localDate: "2026-05-04", startsAt: utc("2026-05-04T09:00:00Z") };
    expect(dueRun(daily, utc("2026-05-04T11:59:00Z"), noHolidays)).toEqual({ due: run });
    expect(dueRun(daily, utc("2026-05-04T11:59:59.999Z"), noHolidays)).toEqual({ due: run });
    expect(dueRun(daily, utc("2026-05-04T12:00:00Z"), noHolidays)).toEqual({ missed: run });
    expect(dueRun(daily, utc("2026-05-04T12:01:00Z"), noHolidays)).toEqual({ missed: run });
    expect(dueRun(daily, utc("2026-05-04T12:01:00Z"), { ...noHolidays, maxLateMinutes: 240 })).toEqual({ due: run });
  });

  it("keeps a late-evening run on its own local date when caught up after midnight", () => {
    const lateEvening: ScheduleTiming = { time: "23:50", tz: "Asia/Tokyo", days: ["fri"] };
    // 00:10 Saturday 2026-05-09 in Tokyo; Saturday itself is not listed.
    expect(dueRun(lateEvening, utc("2026-05-08T15:10:00Z"), noHolidays)).toEqual({
      due: { localDate: "2026-05-08", startsAt: utc("2026-05-08T14:50:00Z") },
    });
  });

  it("prefers today's run, and never reports yesterday's as missed", () => {
    const daily: ScheduleTiming = { time: "00:30", tz: "UTC", days: everyDay };
    expect(dueRun(daily, utc("2026-05-09T00:40:00Z"), noHolidays)).toMatchObject({ due: { localDate: "2026-05-09" } });
    expect(dueRun(daily, utc("2026-05-09T00:20:00Z"), noHolidays)).toBeNull();
    const lateEvening: ScheduleTiming = { time: "23:50", tz: "UTC", days: everyDay };
    expect(dueRun(lateEvening, utc("2026-05-09T02:49:00Z"), noHolidays)).toMatchObject({
      due: { localDate: "2026-05-08" },
    });
    expect(dueRun(lateEvening, utc("2026-05-09T02:50:00Z"), noHolidays)).toBeNull();
  });
});

describe("nextRunAfter", () => {
  const weekdays: ScheduleTiming = { time: "09:00", tz: "America/New_York", days: ["mon", "tue", "wed", "thu", "fri"] };

  it("skips the weekend and a holiday", () => {
    // Friday 2026-07-03 10:00 EDT, after that day's run; Monday 2026-07-06 is a holiday.
    const isHoliday = (localDate: string) => localDate === "2026-07-06";
    expect(nextRunAfter(weekdays, utc("2026-07-03T14:00:00Z"), isHoliday)).toEqual({
      localDate: "2026-07-07",
      startsAt: utc("2026-07-07T13:00:00Z"),
    });
  });

  it("returns today's run when it is still ahead, and is strict about now", () => {
    expect(nextRunAfter(weekdays, utc("2026-07-02T12:59:00Z"), () => false)?.localDate).toBe("2026-07-02");
    expect(nextRunAfter(weekdays, utc("2026-07-02T13:00:00Z"), () => false)?.localDate).toBe("2026-07-03");
  });

  it("gives up beyond the horizon", () => {
    expect(nextRunAfter(weekdays, utc("2026-07-02T14:00:00Z"), () => true)).toBeNull();
    expect(nextRunAfter(weekdays, utc("2026-07-03T14:00:00Z"), () => false, 2)).toBeNull();
  });
});
