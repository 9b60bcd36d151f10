import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { StandupResponse } from "../src/contract/index.ts";
import { schedules } from "../src/db/schema.ts";
import { createKey } from "../src/features/mcp-keys/index.ts";
import { tick } from "../src/features/standups/index.ts";
import { findTemplate } from "../src/features/templates/index.ts";
import { useTestApp } from "./support/app.ts";
import { parseCsv } from "./support/csv.ts";
import { createSchedule } from "./support/factories.ts";

const TEAM = "T0EVERY";
const RETRO_CHANNEL = "C0RETRO";
const DAILY_CHANNEL = "C0DAILY";
const DATE = "2026-03-02";
const RETRO = findTemplate("Sprint retrospective")!.questions;
const DAILY = ["What did you do yesterday?", "What will you do today?", "Anything blocking you?"];

const ANA = [
  "Shipped search :tada:",
  "Pairing on billing",
  "Slow CI builds",
  "Missed the export goal: waiting on the infra team",
  "Stop Friday deploys",
  "Ben, for the on-call cover",
];
const BEN = ["Reviews", "Docs", "Blocked on review", "none", "Long meetings", "Ana"];
const CAT = ["Wrote the runbook", "Vendor call", "Blocked on the vendor contract"];

const labelled = (questions: readonly string[], answers: string[]) =>
  questions.map((question, i) => ({ question, answer: answers[i] }));

/**
 * A six-question standup (the Sprint retrospective template, blocker question 4) next to a three-question one
 * without a blocker question: every view shows every answer under the question the run asked, and blockers
 * follow each standup's blocker question.
 */
describe("every answer, labelled, in every view", async () => {
  const t = await useTestApp();
  t.clock.set(`${DATE}T08:59:00Z`); // a Monday
  await t.installTeam(TEAM, { name: "Every Co" });
  for (const [id, name] of [
    ["U0ANA", "Ana"],
    ["U0BEN", "Ben"],
    ["U0CAT", "Cat"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: RETRO_CHANNEL, name: "retro", members: ["U0ANA", "U0BEN", "BT0EVERYBOT"] });
  t.fake.addChannel(TEAM, { id: DAILY_CHANNEL, name: "daily", members: ["U0CAT", "BT0EVERYBOT"] });
  const retroId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: RETRO_CHANNEL,
    time: "09:00",
    questions: [...RETRO],
  });
  const dailyId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: DAILY_CHANNEL,
    time: "09:00",
    questions: DAILY,
  });
  await t.deps.db.update(schedules).set({ name: "Sprint retro", blockerQuestion: 4 }).where(eq(schedules.id, retroId));
  await t.deps.db.update(schedules).set({ blockerQuestion: null }).where(eq(schedules.id, dailyId));

  t.clock.set(`${DATE}T09:00:10Z`);
  const started = (await tick(t.deps)).started;
  expect(started).toHaveLength(2);
  await t.deps.queue.drain();

  const runOf = async (scheduleId: string) =>
    (await t.deps.db.query.standupRuns.findFirst({ where: (r, { eq: is }) => is(r.scheduleId, scheduleId) }))!;
  const retroRun = await runOf(retroId);
  const dailyRun = await runOf(dailyId);

  const submit = (user: string, runId: number, answers: string[]) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: TEAM, domain: "every" },
      user: { id: user, team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.every",
      view: {
        id: "V0EVERY",
        type: "modal",
        team_id: TEAM,
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: {
            ...Object.fromEntries(answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }])),
            mood: { mood: { type: "static_select", selected_option: null } },
          },
        },
      },
    });
  for (const [user, run, answers] of [
    ["U0ANA", retroRun, ANA],
    ["U0BEN", retroRun, BEN],
    ["U0CAT", dailyRun, CAT],
  ] as const) {
    expect((await submit(user, run.id, [...answers])).statusCode).toBe(200);
  }
  await t.deps.queue.drain();

  const admin = await t.signIn(TEAM, "U0EVERYADMIN");
  const get = (url: string) => t.inject({ method: "GET", url, headers: { cookie: admin } });
  const reportRows = async () =>
    ((await get(`/dashboard/api/reports?from=${DATE}&to=${DATE}`)).json() as { standups: StandupResponse[] }).standups;
  const csvRows = async () => parseCsv((await get(`/dashboard/api/export/csv?from=${DATE}&to=${DATE}`)).body);
  const feedToken = (
    (await t.inject({ method: "POST", url: "/dashboard/api/feed-token", headers: { cookie: admin } })).json() as {
      token: string;
    }
  ).token;
  const feedHtml = async () => (await t.inject({ method: "GET", url: `/feed/${feedToken}` })).body;

  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const mcp = new Client({ name: "every-answer-test", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: {
        headers: { Authorization: `Bearer ${(await createKey(t.deps, TEAM, "U0EVERYADMIN", { name: "test" })).key}` },
      },
    }),
  );
  afterAll(() => mcp.close());
  const tool = async (name: string, args: Record<string, unknown>) => {
    const res = (await mcp.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
    expect(res.isError).toBeUndefined();
    return JSON.parse(res.content[0]!.text) as Record<string, unknown>;
  };

  it("the reports API gives each response its standup and all six answers with the questions asked", async () => {
    const byUser = new Map((await reportRows()).map((r) => [r.user_id, r]));
    expect(byUser.get("U0ANA")).toMatchObject({
      standup_date: DATE,
      schedule_id: retroId,
      standup_name: "Sprint retro",
      yesterday: ANA[0],
      today: ANA[1],
      blockers: ANA[3],
      has_blocker: true,
      blocker_question: 4,
      answers: labelled(RETRO, ANA),
    });
    // Ben's third answer reads like a blocker, but question 4 is this standup's blocker question.
    expect(byUser.get("U0BEN")).toMatchObject({ blockers: "none", has_blocker: false, answers: labelled(RETRO, BEN) });
    expect(byUser.get("U0CAT")).toMatchObject({
      schedule_id: dailyId,
      // Unnamed: called after its channel, by the channel's name (the dashboard's list says the same).
      standup_name: "#daily standup",
      blockers: "",
      has_blocker: false,
      blocker_question: null,
      answers: labelled(DAILY, CAT),
    });
  });

  it("stats count only answers to a blocker question as active blockers", async () => {
    const stats = (await get("/dashboard/api/stats")).json() as { active_blockers: number };
    expect(stats.active_blockers).toBe(1);
    const blockers = await tool("get_blockers", { days: 1 });
    expect(blockers).toMatchObject({ count: 1, blockers: [{ user_id: "U0ANA", blockers: ANA[3] }] });
  });

  it("the thread reply shows all six answers and marks the blocker question's answer", async () => {
    const reply = t.fake
      .messages(RETRO_CHANNEL)
      .find((m) => m.thread_ts && JSON.stringify(m.blocks).includes("<@U0ANA>"))!;
    const body = JSON.stringify(reply.blocks);
    for (const q of RETRO) expect(body).toContain(q);
    expect(body).toContain(`:rotating_light: *${RETRO[3]}*`);
    expect(body).not.toContain(`:rotating_light: *${RETRO[2]}*`);
  });

  it("the CSV export appends the standup and six question/answer pairs after the spec's columns", async () => {
    const [header, ...data] = await csvRows();
    expect(header).toEqual([
      ...["standup_date", "user_id", "real_name", "yesterday", "today", "blockers", "mood", "submitted_at"],
      "schedule_id",
      "standup_name",
      ...[1, 2, 3, 4, 5, 6].flatMap((n) => [`question_${n}`, `answer_${n}`]),
      "mood_score",
    ]);
    const ana = data.find((r) => r[1] === "U0ANA")!;
    expect(ana.slice(3, 6)).toEqual([ANA[0], ANA[1], ANA[3]]);
    // No mood chosen: mood_score is empty.
    expect(ana.slice(8)).toEqual([retroId, "Sprint retro", ...RETRO.flatMap((q, i) => [q, ANA[i]]), ""]);
    const cat = data.find((r) => r[1] === "U0CAT")!;
    expect(cat.slice(8)).toEqual([
      dailyId,
      "#daily standup",
      ...DAILY.flatMap((q, i) => [q, CAT[i]]),
      ...["", "", "", "", "", ""],
      "",
    ]);
  });

  it("MCP get_standups and get_today_standups carry every answer with its question", async () => {
    for (const result of [
      await tool("get_standups", { from_date: DATE, to_date: DATE }),
      await tool("get_today_standups", {}),
    ]) {
      const ana = (result.standups as StandupResponse[]).find((s) => s.user_id === "U0ANA");
      expect(ana).toMatchObject({ standup_name: "Sprint retro", answers: labelled(RETRO, ANA), blocker_question: 4 });
    }
  });

  it("MCP search_standups finds words in any answer, not only the first three", async () => {
    const found = await tool("search_standups", { query: "friday deploys", days: 7 });
    const [hit] = found.results as (StandupResponse & { snippet: string })[];
    expect(found.count).toBe(1);
    expect(hit).toMatchObject({ user_id: "U0ANA", answers: labelled(RETRO, ANA) });
    expect(hit!.snippet).toContain("**Friday**");
  });

  it("the public feed shows the six questions with their answers, under the standup's name", async () => {
    const html = await feedHtml();
    const article = html.split("<article").find((a) => a.includes("Pairing on billing"))!;
    const pairs = [...article.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2]]);
    // Nothing here needs HTML escaping; the shortcode shows as the emoji.
    expect(pairs).toEqual(RETRO.map((q, i) => [q, ANA[i]!.replace(":tada:", "🎉")]));
    expect(article).toContain("Sprint retro · ");
  });

  it("editing the standup's questions afterwards does not relabel the answers already given", async () => {
    const res = await t.inject({
      method: "PUT",
      url: `/dashboard/api/standups/${retroId}`,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: { questions: ["Renamed one?", "Renamed two?"] },
    });
    expect(res.statusCode).toBe(200);
    const ana = (await reportRows()).find((r) => r.user_id === "U0ANA")!;
    expect(ana.answers).toEqual(labelled(RETRO, ANA));
    const csvAna = (await csvRows()).find((r) => r[1] === "U0ANA")!;
    expect(csvAna.slice(10, 12)).toEqual([RETRO[0], ANA[0]]);
    const mcpAna = ((await tool("get_standups", { from_date: DATE })).standups as StandupResponse[]).find(
      (s) => s.user_id === "U0ANA",
    )!;
    expect(mcpAna.answers).toEqual(labelled(RETRO, ANA));
    const html = await feedHtml();
    expect(html).toContain(`<dt>${RETRO[0]}</dt>`);
    expect(html).not.toContain("Renamed one?");
  });
});
