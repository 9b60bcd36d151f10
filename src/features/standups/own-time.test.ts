import { describe, expect, it } from "vitest";
import { isYesterdayQuestion, nextAsk } from "./own-time.ts";

describe("the yesterday question", () => {
  it("is the default's first question, or one that starts with 'What did you' or mentions yesterday", () => {
    expect(isYesterdayQuestion("What did you complete yesterday?")).toBe(true);
    expect(isYesterdayQuestion("what did you ship?")).toBe(true);
    expect(isYesterdayQuestion("Anything left from YESTERDAY?")).toBe(true);
    expect(isYesterdayQuestion("How confident are you, 1–5?")).toBe(false);
    expect(isYesterdayQuestion("What will you do today?")).toBe(false);
    expect(isYesterdayQuestion(undefined)).toBe(false);
  });
});

describe("the member's next ask", () => {
  const s = {
    active: true,
    scheduleTime: "09:00",
    scheduleTz: "Europe/Berlin",
    scheduleDays: "mon,tue,wed,thu,fri",
    timingChangedAt: null,
    askInMemberTimezone: false,
  };
  it("skips weekends and skipped dates, in the zone given", () => {
    const friday = new Date("2026-03-06T09:00:00Z");
    expect(nextAsk(s, "Europe/Berlin", friday, () => false)).toEqual({
      localDate: "2026-03-09",
      askAt: new Date("2026-03-09T08:00:00Z"),
    });
    // Friday 09:00 in New York is still ahead at 09:00Z; after it, Monday is skipped, Tuesday is EDT (UTC-4).
    expect(nextAsk(s, "America/New_York", friday, () => false)?.askAt).toEqual(new Date("2026-03-06T14:00:00Z"));
    const fridayEvening = new Date("2026-03-06T15:00:00Z");
    expect(nextAsk(s, "America/New_York", fridayEvening, (d) => d === "2026-03-09")?.askAt).toEqual(
      new Date("2026-03-10T13:00:00Z"),
    );
  });
  it("is none for a paused standup, and never before the last timing change", () => {
    expect(nextAsk({ ...s, active: false }, "UTC", new Date("2026-03-06T00:00:00Z"), () => false)).toBeNull();
    const changed = { ...s, timingChangedAt: new Date("2026-03-11T12:00:00Z") };
    expect(nextAsk(changed, "Europe/Berlin", new Date("2026-03-06T00:00:00Z"), () => false)?.localDate).toBe(
      "2026-03-12",
    );
  });
});
