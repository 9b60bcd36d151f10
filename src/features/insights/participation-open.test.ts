import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { standupRuns } from "../../db/schema.ts";
import { overallPct } from "./insights.service.ts";
import { participationByDay } from "./participation.repo.ts";

const TEAM = "T0PARTOPEN";
// Wednesday 11 March 2026, 11:00 UTC (the workspace calendar is UTC); today's run is open until 23:59.
const NOW = "2026-03-11T11:00:00Z";
const TODAY = "2026-03-11";
const YESTERDAY = "2026-03-10";
const PEOPLE = Array.from({ length: 25 }, (_, i) => `U0P${String(i).padStart(2, "0")}`);
const answer = { answers: ["Yesterday's work", "Today's work", "none"] as [string, string, string] };
const answered = (n: number) => Object.fromEntries(PEOPLE.slice(0, n).map((u) => [u, answer]));

/**
 * The case: 25 asked, 6 answered while the run is open. The spec's row says total = people asked and
 * pct = submitted / total ("24 % so far, 19 awaiting"), never 100 %; window figures and streaks still do not
 * count the 19 as missed.
 */
describe("participation of an open run: total is the people asked", async () => {
  const t = await useTestApp();
  t.clock.set(NOW);
  await t.installTeam(TEAM);
  for (const u of PEOPLE) await t.addMember(TEAM, u);
  const admin = await t.signIn(TEAM, "U0PARTOPENADMIN");
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0PART", time: "09:00" });
  // Yesterday, closed: everyone answered. Today: 6 of 25 so far, the run open until midnight.
  await seedRun(t.deps.db, { teamId: TEAM, scheduleId, date: YESTERDAY, asked: PEOPLE, answers: answered(25) });
  await seedRun(t.deps.db, { teamId: TEAM, scheduleId, date: TODAY, asked: PEOPLE, answers: answered(6) });
  await t.deps.db
    .update(standupRuns)
    .set({ status: "open", closesAt: new Date(`${TODAY}T23:59:00Z`), closedAt: null })
    .where(and(eq(standupRuns.teamId, TEAM), eq(standupRuns.localDate, TODAY)));
  const get = (url: string) => t.inject({ method: "GET", url, headers: { cookie: admin } });

  const open = { submitted: 6, total: 25, pct: 24, open: true, awaiting: 19 };
  const closed = { submitted: 25, total: 25, pct: 100, open: false, awaiting: 0 };
  const openDay = { date: TODAY, ...open, standups: [{ schedule_id: scheduleId, ...open }] };
  const closedDay = { date: YESTERDAY, ...closed, standups: [{ schedule_id: scheduleId, ...closed }] };

  it("unit: the open day counts everyone asked, the closed one is final, and the window leaves the awaiting out", async () => {
    const days = await participationByDay(t.deps.db, TEAM, YESTERDAY, TODAY, {}, t.clock.now());
    expect(days).toEqual([closedDay, openDay]);
    // 31 answers of the 31 who count: nobody still awaiting is a miss.
    expect(overallPct(days)).toBe(100);
    expect(overallPct(days.slice(1))).toBe(100);
  });

  it("API: reports and analytics give the same rows; summary, 7-day stats and streaks miss nobody awaiting", async () => {
    const reports = (await get(`/dashboard/api/reports?from=${YESTERDAY}&to=${TODAY}`)).json();
    expect(reports.participation).toEqual([closedDay, openDay]);
    expect(reports.summary).toMatchObject({ asked: 31, answered: 31, pct: 100, awaiting: 19 });
    const analytics = (await get("/dashboard/api/analytics?days=2")).json();
    expect(analytics.participation.daily).toEqual([closedDay, openDay]);
    expect(analytics.participation.overall_pct).toBe(100);
    // Someone awaiting today keeps yesterday's streak and their 100 %.
    const late = analytics.members.find((m: { user_id: string }) => m.user_id === "U0P24");
    expect(late).toMatchObject({ asked: 1, submitted: 1, pct: 100, current_streak: 1 });
    expect((await get("/dashboard/api/stats")).json()).toMatchObject({ submitted_today: 6, participation_7d_pct: 100 });
  });

  it("API: once the run closes, the 19 are missed and the day is final", async () => {
    await t.deps.db
      .update(standupRuns)
      .set({ status: "closed", closedAt: new Date(`${TODAY}T23:59:00Z`) })
      .where(and(eq(standupRuns.teamId, TEAM), eq(standupRuns.localDate, TODAY)));
    try {
      const reports = (await get(`/dashboard/api/reports?from=${TODAY}&to=${TODAY}`)).json();
      expect(reports.participation[0]).toMatchObject({ submitted: 6, total: 25, pct: 24, open: false, awaiting: 0 });
      expect(reports.summary).toMatchObject({ asked: 25, answered: 6, pct: 24, awaiting: 0 });
      const analytics = (await get("/dashboard/api/analytics?days=2")).json();
      expect(analytics.participation.overall_pct).toBe(62); // 31 of 50
      const late = analytics.members.find((m: { user_id: string }) => m.user_id === "U0P24");
      expect(late).toMatchObject({ asked: 2, submitted: 1, current_streak: 0 });
    } finally {
      await t.deps.db
        .update(standupRuns)
        .set({ status: "open", closedAt: null })
        .where(and(eq(standupRuns.teamId, TEAM), eq(standupRuns.localDate, TODAY)));
    }
  });
});
