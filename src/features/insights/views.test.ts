import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { seedBlocker } from "../../../test/support/blockers.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { responses, runParticipants, schedules, standupRuns } from "../../db/schema.ts";

const TEAM = "T0VIEW";
const OTHER = "T0ELSE";
// Tuesday 10 March 2026, 10:00 UTC (the workspace calendar is UTC).
const NOW = "2026-03-10T10:00:00Z";
const TODAY = "2026-03-10";

type Status = "pending" | "asked" | "answered" | "skipped";

/** A run written straight to the tables, open or closed, with each participant's status and answers. */
async function seedOpenRun(
  t: TestApp,
  s: {
    scheduleId: string;
    date: string;
    start: string;
    status: "open" | "closed";
    closesAt: string;
    participants: Record<string, Status>;
    answers: Record<string, [string, string, string]>;
  },
): Promise<number> {
  const startsAt = new Date(`${s.date}T${s.start}:00Z`);
  const [run] = await t.deps.db
    .insert(standupRuns)
    .values({
      teamId: TEAM,
      scheduleId: s.scheduleId,
      localDate: s.date,
      channelId: "C0VIEWS",
      questions: ["Yesterday?", "Today?", "Blockers?"],
      scheduleTz: "UTC",
      startsAt,
      remindAt: null,
      closesAt: new Date(s.closesAt),
      status: s.status,
      createdAt: startsAt,
    })
    .returning({ id: standupRuns.id });
  const runId = run!.id;
  await t.deps.db.insert(runParticipants).values(
    Object.entries(s.participants).map(([userId, status]) => ({
      runId,
      userId,
      teamId: TEAM,
      status,
      createdAt: startsAt,
      ...(status === "pending" ? { askAt: new Date(`${s.date}T17:00:00Z`) } : {}),
    })),
  );
  for (const [i, [userId, a]] of Object.entries(s.answers).entries()) {
    await t.deps.db.insert(responses).values({
      teamId: TEAM,
      scheduleId: s.scheduleId,
      runId,
      userId,
      standupDate: s.date,
      answers: a,
      yesterday: a[0],
      today: a[1],
      blockers: a[2],
      hasBlocker: a[2] !== "none",
      submittedAt: new Date(startsAt.getTime() + (i + 1) * 60_000),
    });
  }
  return runId;
}

describe("views per standup and member; open runs are not misses", async () => {
  const t = await useTestApp();
  t.clock.set(NOW);
  await t.installTeam(TEAM);
  await t.installTeam(OTHER);
  for (const [u, name] of [
    ["U0AMY", "Amy"],
    ["U0BOB", "Bob"],
    ["U0CID", "Cid"],
    ["U0DEE", "Dee"],
  ] as const) {
    await t.addMember(TEAM, u, { realName: name });
  }
  const admin = await t.signIn(TEAM, "U0VIEWADMIN");
  const alpha = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0ALPHA", time: "09:00" });
  const beta = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0BETA", time: "08:00" });
  const elsewhere = await createSchedule(t.deps.db, t.clock, { teamId: OTHER, channelId: "C0ELSE", time: "09:00" });
  await t.deps.db.update(schedules).set({ name: "Alpha daily" }).where(eq(schedules.id, alpha));

  // Alpha, 2–9 March: Amy answers every day, Bob misses Friday the 6th, Cid never answers.
  for (const date of ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-09"]) {
    await seedRun(t.deps.db, {
      teamId: TEAM,
      scheduleId: alpha,
      date,
      asked: ["U0AMY", "U0BOB", "U0CID"],
      answers: {
        U0AMY: { answers: ["Shipped the kubernetes upgrade", "Reviews", "none"] },
        ...(date === "2026-03-06" ? {} : { U0BOB: { answers: ["Billing", "More billing", "none"] } }),
      },
    });
  }
  // Today: Alpha is open until midnight. Bob answered, Amy not yet, Cid skipped, Dee is asked later (own zone).
  const alphaToday = await seedOpenRun(t, {
    scheduleId: alpha,
    date: TODAY,
    start: "09:00",
    status: "open",
    closesAt: `${TODAY}T23:59:00Z`,
    participants: { U0AMY: "asked", U0BOB: "answered", U0CID: "skipped", U0DEE: "pending" },
    answers: { U0BOB: ["Billing", "Invoices", "Waiting on legal"] },
  });
  // The blocker item Bob's answer opens: the one active blocker.
  await seedBlocker(t.deps.db, {
    teamId: TEAM,
    scheduleId: alpha,
    userId: "U0BOB",
    text: "Waiting on legal",
    openedDate: TODAY,
  });
  // Beta, started at 08:00: Amy answered.
  await seedOpenRun(t, {
    scheduleId: beta,
    date: TODAY,
    start: "08:00",
    status: "open",
    closesAt: `${TODAY}T23:59:00Z`,
    participants: { U0AMY: "answered" },
    answers: { U0AMY: ["Beta things", "Deploy the kubernetes cluster", "none"] },
  });

  const get = (url: string, cookie = admin) => t.inject({ method: "GET", url, headers: { cookie } });
  const streakOf = async (query: string, user: string) => {
    const res = await get(`/dashboard/api/analytics?days=14${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().members as { user_id: string; current_streak: number; asked: number; submitted: number }[]).find(
      (m) => m.user_id === user,
    );
  };

  it("a member with a long streak keeps it while today's run is open and unanswered", async () => {
    expect(await streakOf(`&schedule_id=${alpha}`, "U0AMY")).toMatchObject({
      asked: 6,
      submitted: 6,
      current_streak: 6,
    });
    // Both standups: Beta's answer this morning adds one.
    expect(await streakOf("", "U0AMY")).toMatchObject({ asked: 7, submitted: 7, current_streak: 7 });
    // Bob answered today and Monday, and missed Friday.
    expect(await streakOf(`&schedule_id=${alpha}`, "U0BOB")).toMatchObject({ current_streak: 2, asked: 7 });
  });

  it("participation while a run is open: total is everyone asked, pct the answers so far, awaiting the rest", async () => {
    // Alpha today asked Amy (not answered yet), Bob (answered) and Cid (skipped); Dee is not asked yet.
    const res = await get(`/dashboard/api/reports?days=1&schedule_id=${alpha}`);
    expect(res.json().participation).toEqual([
      {
        date: TODAY,
        submitted: 1,
        total: 3,
        pct: 33,
        open: true,
        awaiting: 2,
        standups: [{ schedule_id: alpha, submitted: 1, total: 3, pct: 33, open: true, awaiting: 2 }],
      },
    ]);
    // The window's figure leaves the awaiting out, as the 7-day stats and streaks do.
    expect(res.json().summary).toMatchObject({ asked: 1, answered: 1, pct: 100, awaiting: 2 });
    const all = (await get("/dashboard/api/reports?days=1")).json();
    expect(all.participation[0]).toMatchObject({ submitted: 2, total: 4, pct: 50, open: true, awaiting: 2 });
    expect(all.participation[0].standups).toEqual(
      [
        { schedule_id: alpha, submitted: 1, total: 3, pct: 33, open: true, awaiting: 2 },
        { schedule_id: beta, submitted: 1, total: 1, pct: 100, open: true, awaiting: 0 },
      ].sort((x, y) => x.schedule_id.localeCompare(y.schedule_id)),
    );
  });

  it("today groups the runs by standup with the answers so far and who has not answered yet", async () => {
    for (const cookie of [admin, await t.signIn(TEAM, "U0CID")]) {
      const res = await get("/dashboard/api/today", cookie);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.date).toBe(TODAY);
      expect(body.standups.map((s: { schedule_id: string }) => s.schedule_id)).toEqual([beta, alpha]);
      const [b, a] = body.standups;
      expect(a).toMatchObject({
        schedule_id: alpha,
        standup_name: "Alpha daily",
        channel_id: "C0ALPHA",
        date: TODAY,
        open: true,
        closes_at: `${TODAY}T23:59:00Z`,
        asked: 3,
        answered: 1,
        not_answered: [
          { user_id: "U0AMY", real_name: "Amy", status: "waiting" },
          { user_id: "U0CID", real_name: "Cid", status: "skipped" },
          { user_id: "U0DEE", real_name: "Dee", status: "not_asked_yet" },
        ],
      });
      expect(a.responses.map((r: { user_id: string; schedule_id: string }) => [r.user_id, r.schedule_id])).toEqual([
        ["U0BOB", alpha],
      ]);
      expect(b).toMatchObject({
        schedule_id: beta,
        standup_name: "Standup in a channel",
        // Asks everyone at once, at the standup's own time.
        member_timezone: false,
        ask_time: "08:00",
        asked: 1,
        answered: 1,
        asked_later: 0,
        away: 0,
        not_answered: [],
      });
      expect(b.responses[0]).toMatchObject({ user_id: "U0AMY", today: "Deploy the kubernetes cluster" });
    }
  });

  it("filters reports, analytics, stats and the export by standup and by member", async () => {
    const beta1 = (await get(`/dashboard/api/reports?days=7&schedule_id=${beta}`)).json();
    expect(beta1.standups.map((s: { user_id: string }) => s.user_id)).toEqual(["U0AMY"]);
    expect(beta1.summary).toMatchObject({ responses: 1, members_answered: 1, asked: 1, answered: 1 });
    const bob = (await get("/dashboard/api/reports?days=14&user_id=U0BOB")).json();
    expect(new Set(bob.standups.map((s: { user_id: string }) => s.user_id))).toEqual(new Set(["U0BOB"]));
    expect(bob.summary).toMatchObject({ responses: 6, asked: 7, answered: 6, pct: 86, active_blockers: 1 });
    const stats = (await get(`/dashboard/api/stats?schedule_id=${alpha}`)).json();
    // Alpha's latest run has four participants. Last 7 days (4–10 March): 4 closed runs × 3 asked with 7
    // answers, and today's open run counts its one answer so far: 8 of 13.
    expect(stats).toEqual({ total_members: 4, submitted_today: 1, participation_7d_pct: 62, active_blockers: 1 });
    const moods = (await get(`/dashboard/api/analytics?days=14&schedule_id=${beta}`)).json();
    expect(moods.members.map((m: { user_id: string }) => m.user_id)).toEqual(["U0AMY"]);
    // The Analytics page's member filter: one member's figures, the same as their reports' summary.
    const bobFigures = (await get("/dashboard/api/analytics?days=14&user_id=U0BOB")).json();
    expect(bobFigures.members).toMatchObject([{ user_id: "U0BOB", asked: 7, submitted: 6, pct: 86 }]);
    expect(bobFigures.participation.overall_pct).toBe(86);
    const csv = await get(`/dashboard/api/export/csv?from=2026-03-01&to=${TODAY}&user_id=U0AMY&schedule_id=${alpha}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split("\r\n");
    expect(lines).toHaveLength(1 + 6);
    expect(lines.slice(1).every((l) => l.includes(",U0AMY,"))).toBe(true);
  });

  it("an unknown member gives empty views; a standup of another workspace or none is 404; a malformed id 400", async () => {
    const nobody = await get("/dashboard/api/reports?days=30&user_id=U0NOBODY");
    expect(nobody.statusCode).toBe(200);
    expect(nobody.json()).toMatchObject({
      standups: [],
      next_cursor: null,
      participation: [],
      summary: { responses: 0, members_answered: 0, asked: 0, answered: 0, pct: 0, awaiting: 0, active_blockers: 0 },
    });
    for (const path of ["reports", "analytics", "stats", "export/csv"]) {
      for (const id of [elsewhere, "SNOSUCHTHING"]) {
        const res = await get(`/dashboard/api/${path}?schedule_id=${id}`);
        expect(res.statusCode, `${path} ${id}`).toBe(404);
        expect(res.json()).toEqual({ error: "Schedule not found" });
      }
      const bad = await get(`/dashboard/api/${path}?schedule_id=${encodeURIComponent("S1; drop")}`);
      expect(bad.statusCode, path).toBe(400);
      expect(bad.json().error).toMatch(/schedule_id/);
    }
  });

  it("searches the answers with q, as the MCP search does, and counts the matches on every page", async () => {
    const first = (await get("/dashboard/api/reports?days=14&q=kubernetes&limit=4")).json();
    expect(first.summary.responses).toBe(7);
    expect(first.standups).toHaveLength(4);
    const rest = (await get(`/dashboard/api/reports?days=14&q=kubernetes&limit=4&cursor=${first.next_cursor}`)).json();
    expect(rest.next_cursor).toBeNull();
    const all = [...first.standups, ...rest.standups];
    expect(all).toHaveLength(7);
    expect(all.every((s: { yesterday: string; today: string }) => /kubernetes/.test(s.yesterday + s.today))).toBe(true);
    // The search stems words and takes web-search syntax, like search_standups.
    const deploy = (await get('/dashboard/api/reports?days=14&q="deploying the"')).json();
    expect(deploy.standups.map((s: { user_id: string }) => s.user_id)).toEqual(["U0AMY"]);
    const tooLong = await get(`/dashboard/api/reports?q=${"x".repeat(201)}`);
    expect(tooLong.statusCode).toBe(400);
  });

  it("a closed unanswered run breaks the streak, and counts as missed", async () => {
    await t.deps.db
      .update(standupRuns)
      .set({ status: "closed", closedAt: new Date(`${TODAY}T23:59:00Z`) })
      .where(eq(standupRuns.id, alphaToday));
    t.clock.set("2026-03-11T00:30:00Z");
    expect(await streakOf(`&schedule_id=${alpha}`, "U0AMY")).toMatchObject({
      asked: 7,
      submitted: 6,
      current_streak: 0,
    });
    expect(await streakOf("", "U0AMY")).toMatchObject({ current_streak: 0 });
    const day = (await get(`/dashboard/api/reports?from=${TODAY}&to=${TODAY}&schedule_id=${alpha}`)).json();
    expect(day.participation[0]).toMatchObject({ submitted: 1, total: 3, pct: 33, open: false, awaiting: 0 });
    t.clock.set(NOW);
  });
});
