import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { seedBlocker } from "../../../test/support/blockers.ts";
import { createSchedule, seedRun, setWorkspaceTimezone } from "../../../test/support/factories.ts";

describe("stats, reports and analytics", async () => {
  const t = await useTestApp();
  // 20:00 UTC on Monday 2 March: already Tuesday 3 March in Auckland, still Monday in Los Angeles.
  t.clock.set("2026-03-02T20:00:00Z");
  const cookies: Record<string, string> = {};
  for (const [team, tz] of [
    ["T0NZ", "Pacific/Auckland"],
    ["T0LA", "America/Los_Angeles"],
  ] as const) {
    await t.installTeam(team);
    await setWorkspaceTimezone(t.deps.db, team, tz);
    for (const u of ["U0AMY", "U0BOB", "U0CID"]) await t.addMember(team, u, { realName: u.slice(2) });
    cookies[team] = await t.signIn(team, `U${team.slice(1)}ADMIN`);
  }
  const get = async (team: string, url: string) =>
    t.inject({ method: "GET", url, headers: { cookie: cookies[team]! } });

  // The same two days of history in both workspaces.
  for (const team of ["T0NZ", "T0LA"]) {
    const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: team, channelId: "C0INS", time: "09:00" });
    await seedRun(t.deps.db, {
      teamId: team,
      scheduleId,
      date: "2026-03-02",
      asked: ["U0AMY", "U0BOB", "U0CID"],
      answers: {
        U0AMY: { answers: ["a", "b", "blocked on review"], mood: "😕" },
        U0BOB: { answers: ["a", "b", "none"], mood: "😀" },
      },
    });
    await seedRun(t.deps.db, {
      teamId: team,
      scheduleId,
      date: "2026-03-03",
      asked: ["U0AMY", "U0BOB", "U0CID"],
      answers: {
        U0AMY: { answers: ["a", "b", "n/a"], mood: "🙂" },
        U0BOB: { answers: ["a", "b", "No access to prod"], mood: "😀" },
        U0CID: { answers: ["a", "b", "-"], mood: "😀" },
      },
    });
    // The blocker items those answers leave: Amy's resolved by her "n/a", Bob's open (the active blocker).
    await seedBlocker(t.deps.db, {
      teamId: team,
      scheduleId,
      userId: "U0AMY",
      text: "blocked on review",
      openedDate: "2026-03-02",
      resolved: { by: "U0AMY", at: "2026-03-03T09:10:00Z", via: "answer" },
    });
    await seedBlocker(t.deps.db, {
      teamId: team,
      scheduleId,
      userId: "U0BOB",
      text: "No access to prod",
      openedDate: "2026-03-03",
    });
  }

  it("'today' is the workspace's date: Auckland sees Tuesday's answers as today, Los Angeles does not", async () => {
    const nz = (await get("T0NZ", "/dashboard/api/stats")).json();
    const la = (await get("T0LA", "/dashboard/api/stats")).json();
    expect(nz).toEqual({ total_members: 4, submitted_today: 3, participation_7d_pct: 83, active_blockers: 1 });
    // For Los Angeles, 3 March is tomorrow: only Monday counts.
    expect(la).toEqual({ total_members: 4, submitted_today: 2, participation_7d_pct: 67, active_blockers: 1 });
  });

  it("reports: default window of 7 days back from today, participation counted against those asked", async () => {
    const res = await get("T0NZ", "/dashboard/api/reports");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total_days).toBe(7);
    expect(body.participation).toEqual([
      {
        date: "2026-03-02",
        submitted: 2,
        total: 3,
        pct: 67,
        open: false,
        awaiting: 0,
        standups: [{ schedule_id: expect.any(String), submitted: 2, total: 3, pct: 67, open: false, awaiting: 0 }],
      },
      {
        date: "2026-03-03",
        submitted: 3,
        total: 3,
        pct: 100,
        open: false,
        awaiting: 0,
        standups: [{ schedule_id: expect.any(String), submitted: 3, total: 3, pct: 100, open: false, awaiting: 0 }],
      },
    ]);
    expect(body.summary).toEqual({
      responses: 5,
      members_answered: 3,
      asked: 6,
      answered: 5,
      pct: 83,
      awaiting: 0,
      active_blockers: 1,
    });
    expect(body.next_cursor).toBeNull();
    expect(body.standups).toHaveLength(5);
    expect(body.standups[0]).toMatchObject({
      user_id: expect.any(String),
      standup_date: "2026-03-03",
      yesterday: "a",
      today: "b",
      mood: expect.any(String),
    });
    for (const key of ["user_id", "standup_date", "yesterday", "today", "blockers", "mood"])
      expect(body.standups[0]).toHaveProperty(key);
  });

  it("reports: days and from/to pick the window; total_days counts calendar days", async () => {
    const one = (await get("T0NZ", "/dashboard/api/reports?days=1")).json();
    expect(one.total_days).toBe(1);
    expect(one.standups.map((s: { standup_date: string }) => s.standup_date)).toEqual([
      "2026-03-03",
      "2026-03-03",
      "2026-03-03",
    ]);
    const range = (await get("T0NZ", "/dashboard/api/reports?from=2026-03-02&to=2026-03-02")).json();
    expect(range.total_days).toBe(1);
    expect(range.participation).toEqual([
      {
        date: "2026-03-02",
        submitted: 2,
        total: 3,
        pct: 67,
        open: false,
        awaiting: 0,
        standups: [{ schedule_id: expect.any(String), submitted: 2, total: 3, pct: 67, open: false, awaiting: 0 }],
      },
    ]);
    const year = (await get("T0NZ", "/dashboard/api/reports?from=2025-03-03&to=2026-03-03")).json();
    expect(year.total_days).toBe(366);
  });

  it.each([
    "days=0",
    "days=366",
    "days=abc",
    "days=1.5",
    "days=-3",
    "from=2026-02-30",
    "from=2026-3-1",
    "to=yesterday",
    "from=2026-03-05&to=2026-03-01",
    "from=2025-01-01&to=2026-03-01",
    "days=1&days=2",
  ])("reports and analytics answer 400 JSON for %s", async (q) => {
    for (const path of ["reports", "analytics"]) {
      const res = await get("T0NZ", `/dashboard/api/${path}?${q}`);
      expect(res.statusCode, `${path}?${q}`).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it("analytics: mood by day with scores and trend, participation, per-member rows with streaks, blockers by day", async () => {
    const a = (await get("T0NZ", "/dashboard/api/analytics?days=7")).json();
    expect(a).toMatchObject({ days: 7, from: "2026-02-25", to: "2026-03-03" });
    expect(a.mood.daily).toEqual([
      { date: "2026-03-02", avg_score: 3.5, counts: { "😕": 1, "😀": 1 } },
      { date: "2026-03-03", avg_score: 4.67, counts: { "🙂": 1, "😀": 2 } },
    ]);
    expect(a.mood.overall_avg).toBe(4.2);
    expect(a.mood.trend).toBe("up");
    expect(a.participation.overall_pct).toBe(83);
    expect(a.participation.daily).toHaveLength(2);
    const byUser = Object.fromEntries(a.members.map((m: { user_id: string }) => [m.user_id, m]));
    expect(byUser.U0AMY).toEqual({
      user_id: "U0AMY",
      real_name: "AMY",
      asked: 2,
      submitted: 2,
      pct: 100,
      current_streak: 2,
      blockers: 1,
    });
    expect(byUser.U0CID).toMatchObject({ asked: 2, submitted: 1, pct: 50, current_streak: 1, blockers: 0 });
    expect(a.blockers).toEqual({
      total: 2,
      by_day: [
        { date: "2026-03-02", count: 1 },
        { date: "2026-03-03", count: 1 },
      ],
    });
  });

  it("a member can read insights; nothing of another workspace leaks in", async () => {
    await t.addMember("T0NZ", "U0PLAIN");
    const member = await t.signIn("T0NZ", "U0PLAIN");
    const res = await t.inject({ method: "GET", url: "/dashboard/api/reports?days=30", headers: { cookie: member } });
    expect(res.statusCode).toBe(200);
    const users = new Set(res.json().standups.map((s: { user_id: string }) => s.user_id));
    expect([...users].sort()).toEqual(["U0AMY", "U0BOB", "U0CID"]);
    expect(res.json().standups).toHaveLength(5);
  });
});
