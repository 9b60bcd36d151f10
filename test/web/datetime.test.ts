import { describe, expect, it } from "vitest";
import { runStartFor } from "../../src/features/schedules/index.ts";
import {
  formatClock,
  formatDate,
  formatDay,
  formatDayRange,
  formatInstant,
  formatLongDay,
  formatStandupInstant,
  formatStandupTime,
  formatTimeOfDay,
  standupTimeParts,
  wallTimeToInstant,
  zoneName,
} from "../../web/src/lib/datetime.ts";

// The locale is pinned so the words do not depend on the machine's; zones are always explicit.
const GB = { locale: "en-GB" };
const US = { locale: "en-US" };

describe("instants in the viewer's zone, the zone named", () => {
  it("names the viewer's zone by its city and follows it across summer time", () => {
    // Europe/Berlin moves to summer time at 01:00 UTC on 29 March 2026 and back at 01:00 UTC on 25 October 2026.
    expect(formatInstant("2026-03-28T08:00:00Z", { ...GB, zone: "Europe/Berlin" })).toBe("28 Mar 2026, 09:00 Berlin");
    expect(formatInstant("2026-03-29T08:00:00Z", { ...GB, zone: "Europe/Berlin" })).toBe("29 Mar 2026, 10:00 Berlin");
    expect(formatInstant("2026-10-25T08:00:00Z", { ...GB, zone: "Europe/Berlin" })).toBe("25 Oct 2026, 09:00 Berlin");
    expect(formatTimeOfDay("2026-03-28T08:00:00Z", { ...GB, zone: "America/New_York" })).toBe("04:00 New York");
    expect(formatTimeOfDay("2026-03-07T13:00:00Z", { ...GB, zone: "America/New_York" })).toBe("08:00 New York");
  });

  it("crosses midnight into the viewer's day", () => {
    expect(formatInstant("2026-12-31T23:30:00Z", { ...GB, zone: "Europe/Berlin" })).toBe("1 Jan 2027, 00:30 Berlin");
    expect(formatInstant("2026-12-31T23:30:00Z", { ...GB, zone: "UTC" })).toBe("31 Dec 2026, 23:30 UTC");
  });

  it("follows the locale's clock and says Never for a missing instant", () => {
    expect(formatTimeOfDay("2026-06-01T13:14:00Z", { ...US, zone: "UTC" })).toMatch(/^1:14\sPM UTC$/);
    expect(formatInstant(null, GB)).toBe("Never");
    expect(formatInstant("not a date", GB)).toBe("not a date");
    expect(formatTimeOfDay(undefined, GB)).toBe("");
    expect(formatClock("09:30", GB)).toBe("09:30");
    expect(formatClock("13:05", US)).toMatch(/^1:05\sPM$/);
  });

  it("names zones by their last part, UTC as UTC", () => {
    expect(zoneName("Europe/Berlin")).toBe("Berlin");
    expect(zoneName("America/Argentina/Buenos_Aires")).toBe("Buenos Aires");
    expect(zoneName("Etc/UTC")).toBe("UTC");
    expect(zoneName("UTC")).toBe("UTC");
    // POSIX signs are reversed in Etc/GMT±N.
    expect(zoneName("Etc/GMT+5")).toBe("UTC−5");
    expect(zoneName("Etc/GMT-3")).toBe("UTC+3");
  });
});

describe("a standup's time in its zone, the viewer's beside it", () => {
  const inNewYork = (date: string) =>
    formatStandupTime("09:30", "Europe/Berlin", { ...GB, zone: "America/New_York", date });

  it("says the viewer's time where their clock differs", () => {
    expect(formatStandupTime("09:30", "Europe/Berlin", { ...GB, zone: "Europe/London", date: "2026-03-02" })).toBe(
      "09:30 Berlin · 08:30 your time",
    );
  });

  it("leaves the viewer's part out in the same zone, or one whose clock reads the same", () => {
    expect(formatStandupTime("09:30", "Europe/Berlin", { ...GB, zone: "Europe/Berlin", date: "2026-03-02" })).toBe(
      "09:30 Berlin",
    );
    expect(standupTimeParts("09:30", "Europe/Berlin", { ...GB, zone: "Europe/Paris", date: "2026-07-01" })).toEqual({
      standup: "09:30 Berlin",
    });
  });

  it("follows both zones' summer time, which change on different days", () => {
    expect(inNewYork("2026-03-02")).toBe("09:30 Berlin · 03:30 your time"); // both on winter time: 6 hours
    expect(inNewYork("2026-03-10")).toBe("09:30 Berlin · 04:30 your time"); // New York moved on 8 March: 5 hours
    expect(inNewYork("2026-03-30")).toBe("09:30 Berlin · 03:30 your time"); // Berlin moved on 29 March: 6 hours
    expect(inNewYork("2026-10-26")).toBe("09:30 Berlin · 04:30 your time"); // Berlin back on 25 October: 5 hours
    expect(inNewYork("2026-11-02")).toBe("09:30 Berlin · 03:30 your time"); // New York back on 1 November: 6 hours
  });

  it("says when the viewer's clock is on another day", () => {
    expect(formatStandupTime("09:30", "Australia/Sydney", { ...GB, zone: "Europe/London", date: "2026-03-30" })).toBe(
      "09:30 Sydney · 23:30 your time, the day before",
    );
    expect(formatStandupTime("22:00", "America/New_York", { ...GB, zone: "Europe/Berlin", date: "2026-06-01" })).toBe(
      "22:00 New York · 04:00 your time, the day after",
    );
  });

  it("uses today in the standup's zone when no day is given", () => {
    const now = new Date("2026-07-01T12:00:00Z");
    expect(formatStandupTime("09:30", "Europe/Berlin", { ...GB, zone: "Europe/London", now })).toBe(
      "09:30 Berlin · 08:30 your time",
    );
  });

  it("reads a wall time on the day of a change as that day's clock does", () => {
    expect(wallTimeToInstant("2026-03-28", "09:30", "Europe/Berlin").toISOString()).toBe("2026-03-28T08:30:00.000Z");
    expect(wallTimeToInstant("2026-03-29", "09:30", "Europe/Berlin").toISOString()).toBe("2026-03-29T07:30:00.000Z");
    expect(wallTimeToInstant("2026-11-01", "09:30", "America/New_York").toISOString()).toBe("2026-11-01T14:30:00.000Z");
  });

  it("puts a time the change skips or repeats where the scheduler starts the run", () => {
    // Spring gap: the first minute after it. Autumn repeat: the first occurrence.
    expect(wallTimeToInstant("2026-03-29", "02:30", "Europe/Berlin").toISOString()).toBe("2026-03-29T01:00:00.000Z");
    expect(wallTimeToInstant("2026-03-08", "02:15", "America/New_York").toISOString()).toBe("2026-03-08T07:00:00.000Z");
    expect(wallTimeToInstant("2026-10-25", "02:30", "Europe/Berlin").toISOString()).toBe("2026-10-25T00:30:00.000Z");
    // Every quarter hour of the nights around each change, in zones with 1 h, 30 min and southern changes: the
    // dashboard and the scheduler agree to the minute.
    const nights: [string, string[]][] = [
      ["Europe/Berlin", ["2026-03-29", "2026-10-25"]],
      ["America/New_York", ["2026-03-08", "2026-11-01"]],
      ["Australia/Sydney", ["2026-04-05", "2026-10-04"]],
      ["Australia/Lord_Howe", ["2026-04-05", "2026-10-04"]],
      ["Asia/Kolkata", ["2026-03-29"]],
    ];
    for (const [zone, dates] of nights) {
      for (const date of dates) {
        for (let minutes = 0; minutes < 4 * 60; minutes += 15) {
          const time = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
          const scheduler = runStartFor({ time, tz: zone }, date).toUTC().toISO({ suppressMilliseconds: false });
          expect(`${zone} ${date} ${time} ${wallTimeToInstant(date, time, zone).toISOString()}`).toBe(
            `${zone} ${date} ${time} ${scheduler}`,
          );
        }
      }
    }
  });

  it("dates a next run in the standup's zone, the viewer's day named when it differs", () => {
    expect(formatStandupInstant("2026-03-03T08:30:00Z", "Europe/Berlin", { ...GB, zone: "Europe/London" })).toBe(
      "Tue 3 Mar, 09:30 Berlin · 08:30 your time",
    );
    expect(formatStandupInstant("2026-03-02T22:30:00Z", "Australia/Sydney", { ...GB, zone: "Europe/London" })).toBe(
      "Tue 3 Mar, 09:30 Sydney · Mon 22:30 your time",
    );
    expect(formatStandupInstant("2026-03-03T08:30:00Z", "Europe/Berlin", { ...GB, zone: "Europe/Berlin" })).toBe(
      "Tue 3 Mar, 09:30 Berlin",
    );
  });
});

describe("calendar days and ranges in words", () => {
  it("formats a day without shifting it into any zone", () => {
    expect(formatDay("2026-03-02", GB)).toBe("Mon 2 Mar");
    expect(formatDate("2026-03-02", GB)).toBe("2 Mar 2026");
    expect(formatLongDay("2026-03-02", GB)).toBe("Monday, 2 March 2026");
    expect(formatDate("garbage", GB)).toBe("garbage");
  });

  it("shares what the two ends share, across months and years", () => {
    expect(formatDayRange("2026-12-21", "2027-01-04", GB)).toBe("21 Dec 2026 – 4 Jan 2027");
    expect(formatDayRange("2026-11-21", "2026-12-04", GB)).toBe("21 Nov – 4 Dec 2026");
    expect(formatDayRange("2026-12-21", "2026-12-25", GB)).toBe("21 – 25 Dec 2026");
    expect(formatDayRange("2026-12-21", "2026-12-25", { ...GB, weekday: true })).toBe("Mon 21 Dec – Fri 25 Dec");
  });

  it("collapses a one-day range and orders reversed ends", () => {
    expect(formatDayRange("2026-12-21", "2026-12-21", GB)).toBe("21 Dec 2026");
    expect(formatDayRange("2026-12-21", "2026-12-21", { ...GB, weekday: true })).toBe("Mon 21 Dec");
    expect(formatDayRange("2027-01-04", "2026-12-21", GB)).toBe("21 Dec 2026 – 4 Jan 2027");
  });
});
