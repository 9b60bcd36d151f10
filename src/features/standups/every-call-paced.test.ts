import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { setProfile, setUpCelebrations } from "../../../test/support/celebrations.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import { rows } from "../../db/client.ts";
import { celebrationsTick } from "../celebrations/index.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0PACE";
const ADMIN = "U0PADMIN";
const CHANNEL = "C0PSTAND";
const BOT = "B0PACEBOT";
const PEOPLE = { U0PANA: "Ana", U0PBEN: "Ben", U0PCAT: "Cat" } as const;
const CEL_TEAM = "T0PACECEL";

/**
 * Issue 22, item 6: Slack answers the first call of every method with 429 (Retry-After 1), again at each phase of a
 * standup, and a Celebrations post, a rule's admin DM and a kudos reaction too. Nothing is lost, nothing is posted
 * twice, and no job fails into a retry: every 429 is waited out (or deferred), never counted as a failure.
 */
describe("every Slack method answering 429 once", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM, { installer: ADMIN });
  t.fake.addUser(TEAM, { id: ADMIN, name: "boss", real_name: "Boss" });
  for (const [id, name] of Object.entries(PEOPLE)) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "pace", members: [...Object.keys(PEOPLE), BOT] });
  await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    tz: "UTC",
    questions: ["What did you do yesterday?", "What will you do today?", "Anything blocking you?"],
  });
  const admin = await t.signIn(TEAM, ADMIN);
  const rule = await t.inject({
    method: "POST",
    url: "/dashboard/api/rules",
    headers: { cookie: admin, "content-type": "application/json" },
    payload: JSON.stringify({ trigger: "blocker_reported", action: "dm_admin", action_target: ADMIN }),
  });
  expect(rule.statusCode, rule.body).toBe(201);
  const cel = await setUpCelebrations(t, CEL_TEAM, { timezone: "UTC", postTime: "09:00" });
  await t.addMember(CEL_TEAM, "U0PCELBDAY");
  await setProfile(t.deps.db, CEL_TEAM, "U0PCELBDAY", { birthday: "03-02" });

  /** Every method's next first call answers 429 with Retry-After: 1. */
  const rearm = () => t.fake.failFirstCallOfEachMethod({ status: 429, retryAfter: 1 });
  const dm = (user: string) => t.fake.dmFor(TEAM, user);
  const inChannel = () => t.fake.messages(CHANNEL);
  const dmTexts = (user: string) => t.fake.messages(dm(user)).map((m) => m.text);
  const settle = async () => {
    await t.app.settle();
    await t.deps.queue.drain();
  };
  let runId = 0;
  t.fake.reset();

  it("the run's parent message and every ask go out once", async () => {
    rearm();
    t.clock.set("2026-03-02T09:00:10Z");
    const started = (await tick(t.deps)).started;
    expect(started).toHaveLength(1);
    runId = started[0]!;
    await settle();
    expect(inChannel()).toHaveLength(1);
    for (const u of Object.keys(PEOPLE)) {
      expect(
        dmTexts(u).filter((x) => x.startsWith("Time for standup")),
        u,
      ).toHaveLength(1);
    }
    // The 429s really happened: to the post, the DM opens and the member list.
    const faulted = new Set(t.fake.calls.filter((c) => c.faulted).map((c) => c.method));
    expect(faulted).toEqual(new Set(["chat.postMessage", "conversations.open", "conversations.members"]));
  });

  it("the Answer button's modal opens within its trigger's life; the modal answer is posted, edited and confirmed once", async () => {
    rearm();
    const res = await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "pace" },
      user: { id: "U0PANA", team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.ana",
      channel: { id: dm("U0PANA") },
      container: { type: "message", channel_id: dm("U0PANA") },
      actions: [{ type: "button", action_id: "standup_answer", block_id: "b", value: String(runId), action_ts: "1" }],
    });
    expect(res.statusCode).toBe(200);
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.open" && c.ok));
    const opens = t.fake.callsTo("views.open");
    expect(opens.map((c) => (c.faulted ? "429" : c.ok ? "ok" : c.error))).toEqual(["429", "ok"]);
    expect(opens[1]!.at - opens[0]!.at).toBeGreaterThanOrEqual(990);

    expect((await submitStandup(t, TEAM, "U0PANA", runId, ["Shipped", "Billing", "none"])).statusCode).toBe(200);
    await settle();
    rearm();
    expect((await submitStandup(t, TEAM, "U0PANA", runId, ["Shipped", "Billing, reviews", "none"])).statusCode).toBe(
      200,
    );
    await settle();
    const replies = inChannel().filter((m) => m.thread_ts);
    expect(replies).toHaveLength(1);
    expect(JSON.stringify(replies[0]!.blocks)).toContain("Billing, reviews");
    expect(t.fake.callsTo("chat.update").map((c) => (c.faulted ? "429" : c.ok ? "ok" : c.error))).toEqual([
      "429",
      "ok",
    ]);
    expect(dmTexts("U0PANA").filter((x) => !x.startsWith("Time for standup"))).toHaveLength(1);
  });

  it("DM answers get each next question once; the blocker reaches the admin's DM once (rule dm_admin)", async () => {
    const say = async (text: string, n: number) => {
      rearm();
      const res = await t.sendEvent(TEAM, {
        type: "message",
        channel_type: "im",
        channel: dm("U0PBEN"),
        user: "U0PBEN",
        text,
        ts: `1772442000.00${n}`,
      });
      expect(res.statusCode).toBe(200);
      await settle();
    };
    await say("Reviewed PRs", 1);
    await say("Fix the flaky test", 2);
    await say("Waiting for the design review", 3);
    const benDms = dmTexts("U0PBEN");
    expect(benDms.filter((x) => x.includes("What will you do today?"))).toHaveLength(1);
    expect(benDms.filter((x) => x.includes("Anything blocking you?"))).toHaveLength(1);
    const [stored] = await rows<{ answers: string[] }>(
      t.deps.db,
      sql`select answers from responses where team_id = ${TEAM} and user_id = 'U0PBEN'`,
    );
    expect(stored?.answers).toEqual(["Reviewed PRs", "Fix the flaky test", "Waiting for the design review"]);
    expect(inChannel().filter((m) => m.thread_ts)).toHaveLength(2);
    const toAdmin = t.fake.messages(dm(ADMIN));
    expect(toAdmin).toHaveLength(1);
    expect(toAdmin[0]!.text).toContain("Ben");
  });

  it("a kudos message gets its reaction once", async () => {
    rearm();
    const ts = t.fake.postAsUser(TEAM, CHANNEL, "U0PANA", "<@U0PCAT> kudos for the fix");
    const res = await t.sendEvent(TEAM, {
      type: "message",
      channel: CHANNEL,
      channel_type: "channel",
      user: "U0PANA",
      text: "<@U0PCAT> kudos for the fix",
      ts,
      team: TEAM,
    });
    expect(res.statusCode).toBe(200);
    await settle();
    expect(t.fake.callsTo("reactions.add").map((c) => (c.faulted ? "429" : c.ok ? "ok" : c.error))).toEqual([
      "429",
      "ok",
    ]);
    expect(t.fake.message(TEAM, CHANNEL, ts)?.reactions?.map((r) => r.count)).toEqual([1]);
  });

  it("the Celebrations post and its reaction go out once", async () => {
    rearm();
    t.clock.set("2026-03-02T09:10:00Z");
    await celebrationsTick(t.deps);
    await settle();
    const posts = t.fake.messages(cel.channel);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toContain("<@U0PCELBDAY>");
    expect(posts[0]!.reactions?.map((r) => r.count)).toEqual([1]);
  });

  it("the reminder and the summary go out once", async () => {
    rearm();
    t.clock.set("2026-03-02T11:00:30Z");
    expect((await tick(t.deps)).reminded).toBe(1);
    await settle();
    expect(dmTexts("U0PCAT").filter((x) => !x.startsWith("Time for standup"))).toHaveLength(1);
    rearm();
    t.clock.set("2026-03-03T00:00:30Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await settle();
    const summaries = inChannel().filter((m) => m.text.startsWith("Standup closed"));
    expect(summaries.map((m) => m.text)).toEqual(["Standup closed: 2/3 answered (67%)"]);
    // Every write method of the day met its 429.
    const faulted = new Set(t.fake.calls.filter((c) => c.faulted).map((c) => c.method));
    for (const m of ["chat.postMessage", "chat.update", "conversations.open", "reactions.add", "views.open"]) {
      expect(faulted.has(m), m).toBe(true);
    }
  });

  it("a listener's reply that Slack asks to wait 30 s for is handed to a job and posted once then", async () => {
    t.fake.reset();
    t.fake.fail("chat.postMessage", { status: 429, retryAfter: 30 }, 1);
    const res = await t.sendEvent(TEAM, {
      type: "message",
      channel_type: "im",
      channel: dm("U0PCAT"),
      user: "U0PCAT",
      text: "sorry, late",
      ts: "1772500000.000100",
    });
    expect(res.statusCode).toBe(200);
    await settle();
    // Their standup closed earlier in this file: the answer goes to it (the last question asked in the DM), taken
    // late until the next run, and the next question is the reply.
    const late = () => t.fake.messages(dm("U0PCAT")).filter((m) => m.text.startsWith("*2/3:*"));
    expect(late()).toHaveLength(0);
    const [job] = await rows<{ state: string; delay_s: number }>(
      t.deps.db,
      sql`select state::text as state, extract(epoch from start_after - created_on)::float8 as delay_s
          from pgboss.job where name = 'chat.post'`,
    );
    expect(job?.state).toBe("created");
    expect(job?.delay_s).toBeGreaterThanOrEqual(29.5);
    await t.deps.db.execute(sql`update pgboss.job set start_after = now() where name = 'chat.post'`);
    await t.deps.queue.drain();
    expect(late()).toHaveLength(1);
    // The same event delivered again (Slack's retry) does not reply twice.
    await t.sendEvent(
      TEAM,
      {
        type: "message",
        channel_type: "im",
        channel: dm("U0PCAT"),
        user: "U0PCAT",
        text: "sorry, late",
        ts: "1772500000.000100",
      },
      { eventId: "Ev0PACEAGAIN" },
    );
    await settle();
    expect(late()).toHaveLength(1);
  });

  it("views.open told to wait past its trigger's 3 s is not retried (the member clicks again)", async () => {
    t.fake.reset();
    t.fake.fail("views.open", { status: 429, retryAfter: 5 }, 1);
    await t.sendInteraction({
      type: "block_actions",
      team: { id: TEAM, domain: "pace" },
      user: { id: "U0PCAT", team_id: TEAM },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: "trigger.cat",
      channel: { id: dm("U0PCAT") },
      container: { type: "message", channel_id: dm("U0PCAT") },
      actions: [{ type: "button", action_id: "standup_answer", block_id: "b", value: String(runId), action_ts: "2" }],
    });
    await t.fake.waitFor((calls) => calls.some((c) => c.method === "views.open"));
    await t.app.settle();
    await new Promise((r) => setTimeout(r, 300));
    expect(t.fake.callsTo("views.open").map((c) => (c.faulted ? "429" : "ok"))).toEqual(["429"]);
  });

  it("no job failed or used a retry, and nothing unexpected reached Slack", async () => {
    const troubled = await rows<{ name: string; state: string; retry_count: number }>(
      t.deps.db,
      sql`select name, state::text as state, retry_count from pgboss.job
          where state = 'failed' or retry_count > 0 order by name`,
    );
    expect(troubled).toEqual([]);
    expect(t.fake.unexpected).toEqual([]);
  });
});
