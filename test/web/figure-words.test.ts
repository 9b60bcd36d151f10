import { describe, expect, it } from "vitest";
import {
  answeredTodayWords,
  lastRunAnsweredWords,
  notAskedWords,
  reportCountsWords,
} from "../../web/src/lib/participation.ts";
import { ruleFiredWords } from "../../web/src/lib/rule-fired.ts";
import type { LastRun, ReportSummary } from "../../web/src/lib/types.ts";

const last = (o: Partial<LastRun>): LastRun => ({
  local_date: "2026-11-27",
  status: "open",
  trigger: "schedule",
  asked: 0,
  answered: 0,
  asked_later: 0,
  away: 0,
  ...o,
});

describe("the Overview's Answered today card", () => {
  it("counts answers of the people asked in today's runs, as the Today card does, not of every member", () => {
    const words = answeredTodayWords([
      { asked: 12, answered: 8 },
      { asked: 3, answered: 1 },
    ]);
    expect(words).toEqual({ value: "9", hint: "of 15 asked today" });
  });

  it("before anyone is asked it says so", () => {
    expect(answeredTodayWords([])).toEqual({ value: "0", hint: "Nobody asked yet today" });
    expect(answeredTodayWords([{ asked: 0, answered: 0 }])).toEqual({ value: "0", hint: "Nobody asked yet today" });
  });
});

describe("the Standups card's last run", () => {
  it("right after Run now (asks still going out) or before anyone's own time: Nobody asked yet, never 0 of 0", () => {
    expect(lastRunAnsweredWords(last({ trigger: "manual" }))).toBe("Nobody asked yet");
    expect(lastRunAnsweredWords(last({ asked_later: 5 }))).toBe("Nobody asked yet");
    expect(lastRunAnsweredWords(last({}))).toBe("Nobody was asked");
    expect(lastRunAnsweredWords(last({ status: "closed", trigger: "manual" }))).toBe("Nobody was asked");
  });

  it("uses the Today card's words for a run that asked people", () => {
    expect(lastRunAnsweredWords(last({ asked: 12, answered: 11 }))).toBe("11 of 12 members answered so far");
    expect(lastRunAnsweredWords(last({ asked: 12, answered: 11, status: "closed" }))).toBe("11 of 12 members answered");
  });

  it("says who was not asked and why", () => {
    expect(notAskedWords(last({ away: 1 }))).toBe("1 away");
    expect(notAskedWords(last({ away: 2, asked_later: 3 }))).toBe("2 away · 3 asked later, at their own time");
    // A closed run asks nobody later.
    expect(notAskedWords(last({ asked_later: 3, status: "closed" }))).toBe("");
  });
});

describe("the Reports summary with a search", () => {
  const s: ReportSummary = {
    responses: 4,
    members_answered: 4,
    asked: 59,
    answered: 47,
    pct: 80,
    awaiting: 5,
    active_blockers: 1,
  };

  it("tells the matching answers apart from the period's participation", () => {
    expect(reportCountsWords(s, "roadmap")).toBe(
      "4 answers match “roadmap”, from 4 members · participation in this period: 80% (47 of 59 asked)",
    );
    expect(reportCountsWords({ ...s, responses: 1, members_answered: 1 }, "roadmap")).toBe(
      "1 answer matches “roadmap”, from 1 member · participation in this period: 80% (47 of 59 asked)",
    );
  });

  it("without a search keeps the short wording", () => {
    expect(reportCountsWords(s)).toBe("4 answers from 4 members · 80% participation (47 of 59 asked)");
    expect(reportCountsWords({ ...s, asked: 0 })).toBe("4 answers from 4 members");
  });
});

describe("a rule's firings", () => {
  it("says when it last fired, in the viewer's zone, and how often", () => {
    expect(
      ruleFiredWords(
        { last_fired_at: "2026-11-27T21:30:00Z", fired_count: 3 },
        { locale: "en-GB", zone: "Europe/London" },
      ),
    ).toBe("Last fired 27 Nov 2026, 21:30 London · 3 times");
    expect(ruleFiredWords({ last_fired_at: null, fired_count: 0 })).toBe("Not fired in the last 90 days");
  });
});
