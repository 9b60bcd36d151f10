import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { createSchedule, seedRun } from "../../test/support/factories.ts";
import { useMcpClients } from "../../test/support/mcp-client.ts";
import { submitStandup } from "../../test/support/standup-answers.ts";
import { startReceiver } from "../../test/support/webhook-receiver.ts";
import type { QuestionDetail } from "../contract/questions.ts";
import { rows } from "../db/client.ts";
import { createKey } from "../features/mcp-keys/index.ts";
import { tick } from "../features/standups/index.ts";
import { MCP_WRITES_PER_MINUTE } from "./write-tools.ts";

const TEAM = "T0MCPW";
const BOT = `B${TEAM}BOT`;
const ADMIN = "U0WADMIN";
const ANA = "U0WANA";
const BEN = "U0WBEN";
const CAT = "U0WCAT";
const DAN = "U0WDAN";
const WRITE_TOOLS = ["submit_standup", "skip_standup", "set_time_off", "give_kudos", "resolve_blocker"];
const BOTH = ["standups:read", "standups:write"];

const TYPED: QuestionDetail[] = [
  { text: "What did you finish?", type: "text", required: true, anonymous: false },
  { text: "Confidence, 1–5?", type: "number", min: 1, max: 5, required: true, anonymous: false },
  {
    text: "Which area?",
    type: "single_choice",
    options: ["Frontend", "Backend", "Infra"],
    required: true,
    anonymous: false,
  },
  { text: "Pairing today?", type: "yes_no", required: false, anonymous: false },
];

/** Submitting, editing and skipping standups from an MCP client, as the credential's member (issue 26). */
describe("MCP write tools: standups", async () => {
  const receiver = await startReceiver();
  afterAll(() => receiver.close());
  const t = await useTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: "true" }, outbound: { allowPlainHttp: true } });
  t.clock.set("2026-03-01T12:00:00Z"); // Sunday: the schedules exist before Monday's runs
  await t.installTeam(TEAM, { name: "Writers", installer: ADMIN });
  t.fake.addUser(TEAM, { id: ADMIN, name: "boss", real_name: "Boss" });
  for (const [id, name] of [
    [ANA, "Ana"],
    [BEN, "Ben"],
    [CAT, "Cat"],
    [DAN, "Dan"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: "C0WSTAND", name: "standup", members: [ANA, BEN, BOT] });
  t.fake.addChannel(TEAM, { id: "C0WTYPED", name: "typed", members: [ANA, BOT] });
  const daily = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0WSTAND", time: "09:00" });
  const typed = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0WTYPED", time: "09:00" });
  await t.deps.db.execute(sql`update schedules set questions = ${JSON.stringify(TYPED.map((q) => q.text))}::jsonb,
      question_details = ${JSON.stringify(TYPED)}::jsonb, blocker_question = null where id = ${typed}`);
  // Last Friday's run, closed: the standup has asked again since, so it takes no answer any more.
  await seedRun(t.deps.db, { teamId: TEAM, scheduleId: daily, date: "2026-02-27", asked: [ANA], answers: {} });
  const admin = await t.signIn(TEAM, ADMIN);
  const hook = await t.inject({
    method: "POST",
    url: "/dashboard/api/webhooks",
    headers: { cookie: admin, "content-type": "application/json" },
    payload: JSON.stringify({ url: `${receiver.origin}/hook`, events: ["standup.submitted"] }),
  });
  expect(hook.statusCode, hook.body).toBe(201);
  t.clock.set("2026-03-02T09:00:10Z");
  await tick(t.deps);
  await t.deps.queue.drain();
  const runOf = async (scheduleId: string, date = "2026-03-02") =>
    (
      await rows<{ id: number }>(
        t.deps.db,
        sql`select id::int as id from standup_runs where schedule_id = ${scheduleId} and local_date = ${date}`,
      )
    )[0]!.id;
  const dailyRun = await runOf(daily);
  const typedRun = await runOf(typed);
  const fridayRun = await runOf(daily, "2026-02-27");

  // The admin's key through the dashboard, as an admin makes one; members' keys as the service stores them.
  const created = await t.inject({
    method: "POST",
    url: "/dashboard/api/mcp/keys",
    headers: { cookie: admin, "content-type": "application/json" },
    payload: JSON.stringify({ name: "admin write", scopes: BOTH }),
  });
  expect(created.statusCode, created.body).toBe(201);
  const mcp = await useMcpClients(t);
  const keyOf = async (userId: string, scopes = BOTH) =>
    mcp.connect((await createKey(t.deps, TEAM, userId, { name: userId, scopes: scopes as never })).key);
  const adminClient = await mcp.connect((created.json() as { key: string }).key);
  const ana = await keyOf(ANA);
  const readOnly = await keyOf(ADMIN, ["standups:read"]);

  it("tools/list shows the write tools only with standups:write; without it a call to one is refused", async () => {
    const listed = (await adminClient.listTools()).tools;
    for (const name of WRITE_TOOLS) {
      const tool = listed.find((x) => x.name === name);
      expect(tool?.annotations, name).toMatchObject({ readOnlyHint: false });
    }
    expect(listed.find((x) => x.name === "give_kudos")?.annotations?.idempotentHint).toBe(false);
    const readNames = (await readOnly.listTools()).tools.map((x) => x.name);
    expect(readNames).toContain("get_standups");
    expect(readNames.filter((n) => WRITE_TOOLS.includes(n))).toEqual([]);
    const refused = await mcp
      .call(readOnly, "submit_standup", { run_id: dailyRun, answers: ["a", "b", "c"] })
      .catch((err: Error) => ({ isError: true, text: err.message }));
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/submit_standup/);
    expect((await rows(t.deps.db, sql`select 1 from responses where team_id = ${TEAM}`)).length).toBe(0);
  });

  it("with two open standups, submit_standup without run_id lists them by name and run id", async () => {
    const res = await mcp.call(ana, "submit_standup", { answers: ["a", "b", "none"] });
    expect(res.isError).toBe(true);
    expect(res.text).toContain(`run_id ${dailyRun}`);
    expect(res.text).toContain(`run_id ${typedRun}`);
    expect(res.text).toMatch(/#standup.*#typed|#typed.*#standup/);
  });

  it("submit_standup stores the answer via MCP: reports show it, the webhook fires, the thread reply says so", async () => {
    const res = await mcp.call(ana, "submit_standup", {
      schedule_id: daily,
      answers: ["Shipped the login page", "Billing", "none"],
      mood: "🙂",
    });
    expect(res.json).toEqual({
      response_id: expect.any(Number),
      run_id: dailyRun,
      schedule_id: daily,
      standup_date: "2026-03-02",
      created: true,
      late: false,
      mood: "🙂",
      questions: [
        { question: expect.any(String), answer: "Shipped the login page" },
        { question: expect.any(String), answer: "Billing" },
        { question: expect.any(String), answer: "none" },
      ],
    });
    const reports = await t.inject({ method: "GET", url: "/dashboard/api/reports?days=1", headers: { cookie: admin } });
    const mine = (reports.json() as { standups: { user_id: string; via: string | null }[] }).standups;
    expect(mine.find((r) => r.user_id === ANA)).toMatchObject({ via: "mcp", yesterday: "Shipped the login page" });
    await t.deps.queue.drain();
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(1);
    const payload = JSON.parse(receiver.received[0]!.body) as Record<string, unknown>;
    expect(JSON.stringify(payload)).toContain("standup.submitted");
    expect(JSON.stringify(payload)).toContain(ANA);
    const reply = t.fake
      .callsTo("chat.postMessage")
      .find((c) => c.args.thread_ts && JSON.stringify(c.args.blocks ?? []).includes("Shipped the login page"));
    expect(reply?.args.channel).toBe("C0WSTAND");
    expect(JSON.stringify(reply?.args.blocks)).toContain("via MCP");
  });

  it("an edit by question text keeps the mood; a later edit in Slack is no longer via MCP", async () => {
    const [q1, q2, q3] = (
      await rows<{ questions: string[] }>(t.deps.db, sql`select questions from standup_runs where id = ${dailyRun}`)
    )[0]!.questions;
    const res = await mcp.call(ana, "submit_standup", {
      run_id: dailyRun,
      answers: { [q1!.toUpperCase()]: "Shipped the login page", [q2!]: "Billing and invoices", [q3!]: "none" },
    });
    expect(res.json).toMatchObject({ created: false, mood: "🙂", run_id: dailyRun });
    const via = async () =>
      (
        await rows<{ via: string | null; today: string }>(
          t.deps.db,
          sql`select via, today from responses
        where run_id = ${dailyRun} and user_id = ${ANA}`,
        )
      )[0];
    expect(await via()).toEqual({ via: "mcp", today: "Billing and invoices" });
    // Naming one question changes that answer only: "change my blocker" keeps yesterday and today.
    const one = await mcp.call(ana, "submit_standup", { run_id: dailyRun, answers: { [q3!]: "Waiting for review" } });
    expect(one.json).toMatchObject({
      created: false,
      questions: [
        { question: q1, answer: "Shipped the login page" },
        { question: q2, answer: "Billing and invoices" },
        { question: q3, answer: "Waiting for review" },
      ],
    });
    expect((await submitStandup(t, TEAM, ANA, dailyRun, ["Shipped", "Billing", "none"], "🙂")).body).toBe("");
    expect(await via()).toEqual({ via: null, today: "Billing" });
  });

  it("typed questions take answers as the DM does; a bad one names the question and its choices", async () => {
    const bad = await mcp.call(ana, "submit_standup", { run_id: typedRun, answers: ["Docs", "3", "Blockchain"] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('"Blockchain" does not answer "Which area?"');
    expect(bad.text).toContain("1. Frontend, 2. Backend, 3. Infra");
    const range = await mcp.call(ana, "submit_standup", { run_id: typedRun, answers: ["Docs", 9, "Infra"] });
    expect(range.text).toContain("a number from 1 to 5");
    const missing = await mcp.call(ana, "submit_standup", { run_id: typedRun, answers: ["Docs"] });
    expect(missing.text).toMatch(/"Confidence, 1–5\?" is required/);
    const ok = await mcp.call(ana, "submit_standup", { run_id: typedRun, answers: ["Docs", "4,5", "2", true] });
    expect(ok.isError, ok.text).toBe(false);
    const [row] = await rows<{ answer_values: unknown }>(
      t.deps.db,
      sql`select answer_values from responses where run_id = ${typedRun} and user_id = ${ANA}`,
    );
    expect(row!.answer_values).toEqual([null, 4.5, "Backend", true]);
  });

  it("refuses in plain words: closed run, not a participant, too long, empty, unknown question, bad mood", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ run_id: fridayRun, answers: ["a", "b", "c"] }, /no longer takes answers/],
      [{ run_id: dailyRun, answers: ["x".repeat(3001), "b", "c"] }, /longer than 3000 characters/],
      [{ run_id: dailyRun, answers: ["", "", ""] }, /is required/],
      [{ run_id: dailyRun, answers: ["a", "b", "c", "d"] }, /4 answers for 3 questions/],
      [{ run_id: dailyRun, answers: { "What is love?": "x" } }, /"What is love\?" is not a question of this standup/],
      [{ run_id: dailyRun, answers: ["a", "b", "c"], mood: "🦄" }, /mood must be one of/],
      [{ run_id: 987654, answers: ["a", "b", "c"] }, /run_id 987654 is not a run of this workspace \(not found\)/],
      [{ run_id: dailyRun, schedule_id: typed, answers: ["a"] }, /is a run of standup/],
    ];
    for (const [args, message] of cases) {
      const res = await mcp.call(ana, "submit_standup", args);
      expect(res.isError, JSON.stringify(args).slice(0, 80)).toBe(true);
      expect(res.text).toMatch(message);
    }
    const cat = await keyOf(CAT);
    const notAsked = await mcp.call(cat, "submit_standup", { run_id: dailyRun, answers: ["a", "b", "c"] });
    expect(notAsked.text).toMatch(/You were not asked in #standup standup of 2026-03-02/);
    expect((await mcp.call(cat, "submit_standup", { answers: ["a"] })).text).toMatch(/no open standup to answer/);
  });

  it("skip_standup skips the member's unanswered open runs, and says when there is nothing to skip", async () => {
    const ben = await keyOf(BEN);
    const res = await mcp.call(ben, "skip_standup");
    expect(res.json).toEqual({
      count: 1,
      skipped: [{ run_id: dailyRun, schedule_id: daily, standup_name: "#standup standup", standup_date: "2026-03-02" }],
    });
    const [p] = await rows<{ status: string }>(
      t.deps.db,
      sql`select status from run_participants where run_id = ${dailyRun} and user_id = ${BEN}`,
    );
    expect(p!.status).toBe("skipped");
    expect((await mcp.call(ben, "skip_standup")).text).toMatch(/Nothing to skip/);
    expect((await mcp.call(ana, "skip_standup", { run_id: dailyRun })).text).toMatch(/Nothing to skip in run_id/);
  });

  it("a credential acting for nobody, or for someone no longer a member, cannot write", async () => {
    const orphan = await keyOf("");
    const res = await mcp.call(orphan, "skip_standup");
    expect(res.text).toMatch(/acts for nobody/);
    expect((await mcp.call(orphan, "get_members")).isError).toBe(false);
    const cat = await keyOf(CAT);
    await t.deps.db.execute(sql`update members set active = false where team_id = ${TEAM} and user_id = ${CAT}`);
    expect((await mcp.call(cat, "give_kudos", { to_user_id: ANA, message: "hi" })).text).toMatch(
      /U0WCAT is not an active member of this workspace/,
    );
  });

  it(`at most ${MCP_WRITES_PER_MINUTE} writes a minute per member, then a tool error saying when to retry`, async () => {
    const dan = await keyOf(DAN);
    for (let i = 0; i < MCP_WRITES_PER_MINUTE; i++) {
      expect((await mcp.call(dan, "skip_standup")).text).toMatch(/Nothing to skip/);
    }
    const limited = await mcp.call(dan, "skip_standup");
    expect(limited.text).toMatch(/Too many writes \(429\): at most 20 a minute per member\. Retry in 50 seconds/);
    // Reads are not writes, and another member has their own count.
    expect((await mcp.call(dan, "get_members")).isError).toBe(false);
    expect((await mcp.call(adminClient, "skip_standup")).text).toMatch(/Nothing to skip/);
    t.clock.advance(50_000);
    expect((await mcp.call(dan, "skip_standup")).text).toMatch(/Nothing to skip/);
  });
});
