import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { seedTypedRun, seedTypedWeek, TYPED_QUESTIONS } from "../../../test/support/typed-answers.ts";
import { anonymousAnswers, standupRuns } from "../../db/schema.ts";

const A = "T0QSA";
const B = "T0QSB";

describe("question statistics (GET /dashboard/api/question-stats)", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-06T18:00:00Z"); // Friday
  await t.installTeam(A);
  await t.installTeam(B);
  for (const u of ["U0AMY", "U0BOB", "U0CID"]) await t.addMember(A, u, { realName: u.slice(2) });
  const admin = await t.signIn(A, "U0QSAADMIN");
  const member = await t.signIn(A, "U0AMY");
  const other = await t.signIn(B, "U0QSBADMIN");
  const standup = await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0TYPED", time: "09:00" });
  const plain = await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0PLAIN", time: "09:00" });
  await seedTypedWeek(t.deps.db, A, standup);
  // Another workspace's standup with its own anonymous answers on the same days: never counted in A's.
  const standupB = await createSchedule(t.deps.db, t.clock, { teamId: B, channelId: "C0TYPED", time: "09:00" });
  await seedTypedRun(t.deps.db, {
    teamId: B,
    scheduleId: standupB,
    date: "2026-03-02",
    answers: {},
    anonymous: { 7: [1, 1, 1, 1, 1, 1] },
  });

  const get = (url: string, cookie = admin) => t.inject({ method: "GET", url, headers: { cookie } });
  const stats = async (query: string, cookie = admin) => {
    const res = await get(`/dashboard/api/question-stats?${query}`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { from: string; to: string; days: number; question_stats: Record<string, unknown>[] };
  };
  const byText = (qs: Record<string, unknown>[], text: string) => qs.find((q) => q.text === text)!;

  it("averages a number question across the week, with min, max and a point per day", async () => {
    const body = await stats(`standup=${standup}&days=5`);
    expect(body).toMatchObject({ from: "2026-03-02", to: "2026-03-06", days: 5 });
    // Only the typed questions, by position; the text questions are not listed.
    expect(body.question_stats.map((q) => q.index)).toEqual([3, 4, 5, 6, 7]);
    expect(byText(body.question_stats, "How confident are you, 1–5?")).toEqual({
      index: 3,
      text: "How confident are you, 1–5?",
      type: "number",
      anonymous: false,
      answered: 11,
      options: [],
      average: 3.82,
      min: 1,
      max: 5,
      trend: [
        { date: "2026-03-02", average: 4, count: 3 },
        { date: "2026-03-03", average: 3, count: 2 },
        { date: "2026-03-04", average: 5, count: 3 },
        { date: "2026-03-05", average: 1, count: 1 },
        { date: "2026-03-06", average: 4, count: 2 },
      ],
      hidden: false,
      hidden_reason: null,
    });
  });

  it("counts answers per option for single choice, yes/no and multiple choice (every option listed)", async () => {
    const { question_stats: questions } = await stats(`schedule_id=${standup}&from=2026-03-02&to=2026-03-06`);
    expect(byText(questions, "Which area?")).toMatchObject({
      type: "single_choice",
      answered: 11,
      options: [
        { option: "Frontend", count: 7 },
        { option: "Backend", count: 3 },
        { option: "Infra", count: 1 },
      ],
      average: null,
      trend: [],
    });
    expect(byText(questions, "Pairing today?")).toMatchObject({
      type: "yes_no",
      answered: 9,
      options: [
        { option: "Yes", count: 4 },
        { option: "No", count: 5 },
      ],
    });
    expect(byText(questions, "Tools used?")).toMatchObject({
      type: "multiple_choice",
      answered: 9,
      options: [
        { option: "Slack", count: 5 },
        { option: "Jira", count: 2 },
        { option: "GitHub", count: 4 },
      ],
    });
    // A narrower window counts only its own days; an option nobody chose shows 0.
    const monday = await stats(`standup=${standup}&from=2026-03-02&to=2026-03-02`);
    expect(byText(monday.question_stats, "Which area?").options).toEqual([
      { option: "Frontend", count: 2 },
      { option: "Backend", count: 1 },
      { option: "Infra", count: 0 },
    ]);
  });

  it("an anonymous question counts only closed runs with 5 answers: a day with 4 is left out of every total", async () => {
    const four = await stats(`standup=${standup}&from=2026-03-02&to=2026-03-02`);
    expect(byText(four.question_stats, TYPED_QUESTIONS[7]!.text)).toEqual({
      index: 7,
      text: TYPED_QUESTIONS[7]!.text,
      type: "number",
      anonymous: true,
      answered: 0,
      options: [],
      average: null,
      min: null,
      max: null,
      trend: [],
      hidden: true,
      hidden_reason: "not enough answers to show",
    });
    // Monday's 4 and Tuesday's 1 make 5 in the window, but no run has 5: still hidden.
    const five = await stats(`standup=${standup}&from=2026-03-02&to=2026-03-03`);
    expect(byText(five.question_stats, TYPED_QUESTIONS[7]!.text)).toMatchObject({ answered: 0, hidden: true });
    // The week: only Wednesday's 5 (1–5) count; Monday's 4 and Tuesday's 1 are in no total, and no min or max.
    const week = await stats(`standup=${standup}&days=5`);
    expect(byText(week.question_stats, TYPED_QUESTIONS[7]!.text)).toMatchObject({
      answered: 5,
      average: 3,
      min: null,
      max: null,
      trend: [{ date: "2026-03-04", average: 3, count: 5 }],
      hidden: false,
      hidden_reason: null,
    });
  });

  it("one person answering an anonymous question on 5 days stays hidden", async () => {
    const solo = await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0SOLO", time: "09:00" });
    for (const date of ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"])
      await seedTypedRun(t.deps.db, { teamId: A, scheduleId: solo, date, answers: {}, anonymous: { 7: [4] } });
    const body = await stats(`standup=${solo}&days=5`);
    expect(byText(body.question_stats, TYPED_QUESTIONS[7]!.text)).toMatchObject({
      answered: 0,
      average: null,
      trend: [],
      hidden: true,
    });
  });

  it("an open run's anonymous answers are not shown until it closes", async () => {
    const live = await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0LIVE", time: "09:00" });
    const runId = await seedTypedRun(t.deps.db, {
      teamId: A,
      scheduleId: live,
      date: "2026-03-06",
      answers: {},
      anonymous: { 7: [1, 2, 3, 4, 5, 5] },
    });
    await t.deps.db.update(standupRuns).set({ status: "open", closedAt: null }).where(eq(standupRuns.id, runId));
    const open = await stats(`standup=${live}&days=1`);
    expect(byText(open.question_stats, TYPED_QUESTIONS[7]!.text)).toMatchObject({ answered: 0, hidden: true });
    await t.deps.db.update(standupRuns).set({ status: "closed" }).where(eq(standupRuns.id, runId));
    const closed = await stats(`standup=${live}&days=1`);
    expect(byText(closed.question_stats, TYPED_QUESTIONS[7]!.text)).toMatchObject({
      answered: 6,
      average: 3.33,
      min: null,
      max: null,
      hidden: false,
    });
  });

  it("an anonymous answer dated a day off its run (a member's own timezone) still counts for that run", async () => {
    const zoned = await createSchedule(t.deps.db, t.clock, { teamId: A, channelId: "C0ZONED", time: "23:00" });
    await seedTypedRun(t.deps.db, { teamId: A, scheduleId: zoned, date: "2026-03-05", answers: {} });
    await t.deps.db.insert(anonymousAnswers).values(
      [2, 3, 4, 5, 5].map((value) => ({
        teamId: A,
        scheduleId: zoned,
        standupDate: "2026-03-06",
        questionIndex: 7,
        value,
      })),
    );
    const body = await stats(`standup=${zoned}&from=2026-03-05&to=2026-03-06`);
    expect(byText(body.question_stats, TYPED_QUESTIONS[7]!.text)).toMatchObject({
      answered: 5,
      average: 3.8,
      hidden: false,
    });
  });

  it("members see the same statistics as admins (as analytics)", async () => {
    expect(await stats(`standup=${standup}&days=5`, member)).toEqual(await stats(`standup=${standup}&days=5`));
  });

  it("a standup without typed questions has none; bad input is a 400, another workspace's standup a 404", async () => {
    expect((await stats(`standup=${plain}&days=5`)).question_stats).toEqual([]);
    const missing = await get("/dashboard/api/question-stats?days=5");
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/standup is required/);
    expect((await get(`/dashboard/api/question-stats?standup=${standup}&days=0`)).statusCode).toBe(400);
    expect((await get("/dashboard/api/question-stats?standup=a%20b")).statusCode).toBe(400);
    expect((await get(`/dashboard/api/question-stats?standup=${standupB}`)).statusCode).toBe(404);
    expect((await get(`/dashboard/api/question-stats?standup=${standup}`, other)).statusCode).toBe(404);
    expect(
      (await t.inject({ method: "GET", url: `/dashboard/api/question-stats?standup=${standup}` })).statusCode,
    ).toBe(401);
  });
});
