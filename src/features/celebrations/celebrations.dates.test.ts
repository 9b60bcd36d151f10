import { describe, expect, it } from "vitest";
import { celebrationsOn, dateInYear, datesPostedOn, postDateFor, type WorkCalendar } from "./celebrations.dates.ts";

const weekdays: WorkCalendar = { workingDays: ["mon", "tue", "wed", "thu", "fri"], holidays: new Set() };

describe("celebration dates", () => {
  it("moves a weekend or holiday to the working day before", () => {
    expect(postDateFor("2026-11-28", weekdays)).toBe("2026-11-27"); // Saturday → Friday
    expect(postDateFor("2026-11-29", weekdays)).toBe("2026-11-27"); // Sunday → Friday
    const withHoliday = { ...weekdays, holidays: new Set(["2026-05-25", "2026-05-22"]) };
    expect(postDateFor("2026-05-25", withHoliday)).toBe("2026-05-21"); // Monday holiday, Friday holiday → Thursday
    expect(postDateFor("2026-05-26", withHoliday)).toBe("2026-05-26");
  });

  it("gathers the following days off into a working day's post, none on a day off", () => {
    expect(datesPostedOn("2026-11-27", weekdays)).toEqual(["2026-11-27", "2026-11-28", "2026-11-29"]);
    expect(datesPostedOn("2026-11-26", weekdays)).toEqual(["2026-11-26"]);
    expect(datesPostedOn("2026-11-28", weekdays)).toEqual([]);
    expect(datesPostedOn("2026-05-22", { ...weekdays, holidays: new Set(["2026-05-25"]) })).toHaveLength(4);
  });

  it("puts 29 February on 28 February in other years", () => {
    expect(dateInYear(2, 29, 2027)).toBe("2027-02-28");
    expect(dateInYear(2, 29, 2028)).toBe("2028-02-29");
    expect(dateInYear(2, 29, 2100)).toBe("2100-02-28");
    expect(dateInYear(2, 29, 2000)).toBe("2000-02-29");
  });

  it("counts anniversaries in whole years from 1, starts on 29 February included", () => {
    const people = [
      { userId: "A", name: "a", birthMonth: null, birthDay: null, startDate: "2025-06-04" },
      { userId: "B", name: "b", birthMonth: null, birthDay: null, startDate: "2016-06-04" },
      { userId: "C", name: "c", birthMonth: null, birthDay: null, startDate: "2026-06-04" },
      { userId: "D", name: "d", birthMonth: null, birthDay: null, startDate: "2024-02-29" },
    ];
    expect(celebrationsOn("2026-06-04", people, "anniversary").map((c) => [c.userId, c.years])).toEqual([
      ["A", 1],
      ["B", 10],
    ]);
    expect(celebrationsOn("2027-02-28", people, "anniversary").map((c) => [c.userId, c.years])).toEqual([["D", 3]]);
    expect(celebrationsOn("2026-06-04", people, "birthday")).toEqual([]);
  });
});
