import { describe, expect, it } from "vitest";
import { answeredWords } from "../../web/src/lib/participation.ts";
import type { TodayStandup } from "../../web/src/lib/types.ts";

const run = (o: Partial<TodayStandup>): TodayStandup => ({
  schedule_id: "s1",
  standup_name: "Global standup",
  channel_id: "C0WORDS",
  date: "2026-12-01",
  open: true,
  closes_at: "2026-12-02T08:00:00Z",
  member_timezone: true,
  ask_time: "09:00",
  asked: 0,
  answered: 0,
  asked_later: 0,
  away: 0,
  responses: [],
  not_answered: [],
  ...o,
});

describe("the Today card's answered count", () => {
  it("says so far while open, and counts the people asked", () => {
    expect(answeredWords(run({ asked: 5, answered: 3 }))).toBe("3 of 5 members answered so far");
    expect(answeredWords(run({ asked: 1, answered: 1, open: false }))).toBe("1 of 1 member answered");
  });

  it("never says 0 of 0: nobody asked yet before anyone's time, nobody was asked when every time had passed", () => {
    expect(answeredWords(run({ asked_later: 4 }))).toBe("Nobody asked yet");
    expect(answeredWords(run({ asked_later: 0 }))).toBe("Nobody was asked");
    expect(answeredWords(run({ open: false }))).toBe("Nobody was asked");
  });
});
