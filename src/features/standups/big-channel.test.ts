import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { upsertPeople } from "../members/index.ts";
import { ASK_CHUNK } from "./ask-batch.ts";
import { tick } from "./scheduler.ts";

/**
 * A standup for a 20,000-person channel, from the member sync to the summary. Every statement on the way runs with
 * all 20,000 (the test databases refuse one with more than 1,000 bind parameters: see test/support/database.ts).
 * Of the 20,000 asks and reminders, a representative part is run: Slack's pace (about 10 DMs a second) would take
 * over half an hour for all of them; the others are recorded as sent in bulk, so the reminder and the summary still
 * cover everyone.
 */
const TEAM = "T0BIG";
const CHANNEL = "C0EVERYONE";
const BOT = "BT0BIGBOT";
const PEOPLE = 20_000;
const userAt = (i: number) => `UB${String(i).padStart(5, "0")}`;

// 20,000 people per test: seconds on a quiet machine, far longer on a loaded one (the suite's default is 30 s).
describe("a standup for a 20,000-person channel", { timeout: 120_000 }, async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:30:00Z"); // a Monday
  await t.installTeam(TEAM);
  const everyone = Array.from({ length: PEOPLE }, (_, i) => userAt(i));
  for (const [i, id] of everyone.entries())
    t.fake.addUser(TEAM, { id, name: `p${i}`, real_name: `Person ${i}`, tz: "UTC" });
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "everyone", members: [...everyone, BOT] });
  await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    tz: "UTC",
    questions: ["Yesterday?", "Today?", "Blockers?"],
  });
  const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(t.deps.db, query))[0]!.n);
  const jobsOf = (name: string, runId: number) =>
    count(sql`select count(*) as n from pgboss.job where name = ${name} and (data ->> 'runId')::bigint = ${runId}`);
  const dmPosts = () =>
    t.fake.callsTo("chat.postMessage").filter((c) => c.ok && String(c.args.channel).startsWith("D"));
  let runId = 0;

  it("the member sync stores all 20,000 from users.list, page after page", async () => {
    await t.deps.queue.enqueue("members.sync", { teamId: TEAM });
    await t.deps.queue.drain({ only: ["members.sync"] });
    expect(t.fake.callsTo("users.list").length).toBeGreaterThanOrEqual(PEOPLE / 1000);
    expect(
      await count(sql`select count(*) as n from members where team_id = ${TEAM} and user_id like 'UB%' and active`),
    ).toBe(PEOPLE);
  });

  it("claims one run at 09:00 and plans an ask for each of the 20,000 in one fan-out", async () => {
    t.clock.set("2026-03-02T09:00:10Z");
    const first = await tick(t.deps);
    expect(first.started).toHaveLength(1);
    runId = first.started[0]!;
    expect((await tick(t.deps)).started).toEqual([]);
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    expect(t.fake.callsTo("conversations.members").length).toBeGreaterThanOrEqual(PEOPLE / 500);
    expect(
      await count(sql`select count(*) as n from run_participants where run_id = ${runId} and status = 'asked'`),
    ).toBe(PEOPLE);
    // In chunks of ASK_CHUNK members (ask-batch.ts), everyone in exactly one of them.
    expect(await jobsOf("standup.asks", runId)).toBe(PEOPLE / ASK_CHUNK);
    expect(
      await count(
        sql`select count(distinct u) as n from pgboss.job, jsonb_array_elements_text(data -> 'userIds') as u
            where name = 'standup.asks' and (data ->> 'runId')::bigint = ${runId}`,
      ),
    ).toBe(PEOPLE);
    // The parent message went out once, in the channel.
    expect(t.fake.messages(CHANNEL)).toHaveLength(1);
  });

  it("asks in channel order: the first 50 asks DM the first 50 members", async () => {
    // The first two chunks of asks (the highest priority: the run's first members).
    await t.deps.queue.drain({ only: ["standup.asks"], maxRounds: 1, batchSize: 50 / ASK_CHUNK });
    const asked = dmPosts().filter((c) => JSON.stringify(c.args.blocks).includes("standup_answer"));
    expect(asked).toHaveLength(50);
    const opened = t.fake.callsTo("conversations.open").map((c) => String(c.args.users));
    expect(opened.sort()).toEqual(everyone.slice(0, 50));
    expect(t.fake.unexpected).toEqual([]);
  });

  it("two answers are stored and posted in the thread", async () => {
    // The other asks as their jobs would have recorded them (their DMs would take Slack half an hour).
    await t.deps.db.execute(
      sql`insert into chat_posts (key, team_id, channel, state, ts, attempts, updated_at)
          select 'run:' || ${runId}::text || ':ask:' || p.user_id, ${TEAM}, 'D' || p.user_id, 'sent', '1772442000.000100', 1, now()
          from run_participants p where p.run_id = ${runId}
          on conflict (key) do nothing`,
    );
    // ...and as they would have marked them asked: each reminder counts from its own ask.
    await t.deps.db.execute(
      sql`update run_participants p set asked_at = r.starts_at, remind_at = r.remind_at
          from standup_runs r where r.id = p.run_id and p.run_id = ${runId} and p.asked_at is null`,
    );
    for (const [user, blocker] of [
      [userAt(7), "none"],
      [userAt(19_999), "waiting on access"],
    ] as const) {
      const res = await t.sendInteraction({
        type: "view_submission",
        team: { id: TEAM, domain: "big" },
        user: { id: user, team_id: TEAM },
        api_app_id: "A0UPBEAT",
        token: "legacy",
        trigger_id: `trigger.${user}`,
        view: {
          id: `V0${user}`,
          type: "modal",
          team_id: TEAM,
          callback_id: "standup_modal",
          private_metadata: JSON.stringify({ runId }),
          state: {
            values: {
              q0: { answer: { type: "plain_text_input", value: "Reviews" } },
              q1: { answer: { type: "plain_text_input", value: "Release" } },
              q2: { answer: { type: "plain_text_input", value: blocker } },
              mood: { mood: { type: "static_select", selected_option: null } },
            },
          },
        },
      });
      expect(res.statusCode).toBe(200);
    }
    await t.deps.queue.drain({ only: ["standup.reply"] });
    expect(await count(sql`select count(*) as n from responses where run_id = ${runId}`)).toBe(2);
    expect(t.fake.messages(CHANNEL).filter((m) => m.thread_ts)).toHaveLength(2);
  });

  it("the reminder at 11:00 is planned for the 19,998 still asked, and goes out", async () => {
    t.clock.set("2026-03-02T11:00:10Z");
    expect((await tick(t.deps)).reminded).toBe(1);
    expect((await tick(t.deps)).reminded).toBe(0);
    expect(await jobsOf("standup.remind", runId)).toBe(PEOPLE - 2);
    const answeredReminded = await count(
      sql`select count(*) as n from pgboss.job where name = 'standup.remind' and (data ->> 'runId')::bigint = ${runId}
          and data ->> 'userId' in (${userAt(7)}, ${userAt(19_999)})`,
    );
    expect(answeredReminded).toBe(0);
    const before = dmPosts().length;
    await t.deps.queue.drain({ only: ["standup.remind"], maxRounds: 1 });
    expect(dmPosts().length - before).toBe(25);
    expect(await count(sql`select count(*) as n from chat_posts where key like ${`run:${runId}:remind:%`}`)).toBe(25);
  });

  it("closes at midnight with one summary over all 20,000: 2 answered, one blocker", async () => {
    t.clock.set("2026-03-03T00:00:10Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain({ only: ["standup.summary"] });
    const summary = t.fake
      .callsTo("chat.postMessage")
      .filter((c) => c.ok && String(c.args.text).startsWith("Standup closed"));
    expect(summary).toHaveLength(1);
    expect(summary[0]!.args.text).toBe("Standup closed: 2/20000 answered (0%)");
    const blocks = JSON.stringify(summary[0]!.args.blocks);
    expect(blocks).toContain("Blockers (1)");
    expect(blocks).toContain("Person 19999");
    expect(blocks).toContain("Did not answer");
    expect(t.fake.unexpected).toEqual([]);
  });
});

describe("a member-timezone standup for a 20,000-person channel", { timeout: 120_000 }, async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z");
  await t.installTeam(TEAM);
  const everyone = Array.from({ length: PEOPLE }, (_, i) => userAt(i));
  const zoneOf = (i: number) => (i % 2 === 0 ? "Asia/Tokyo" : "Asia/Seoul");
  for (const [i, id] of everyone.entries())
    t.fake.addUser(TEAM, { id, name: `p${i}`, real_name: `P${i}`, tz: zoneOf(i) });
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "everyone", members: [...everyone, BOT] });
  // All 20,000 in one call to the store the member sync uses.
  await upsertPeople(
    t.deps.db,
    TEAM,
    everyone.map((userId, i) => ({
      userId,
      realName: `P${i}`,
      displayName: "",
      email: "",
      tz: zoneOf(i),
      active: true,
      slackAdmin: false,
    })),
    t.clock.now(),
  );
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:30",
    tz: "Europe/Berlin",
    days: "mon,tue,wed,thu,fri,sat,sun",
  });
  await t.deps.db.execute(sql`update schedules set ask_in_member_timezone = true where id = ${scheduleId}`);
  const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(t.deps.db, query))[0]!.n);
  let runId = 0;

  it("plans each member's own ask, then asks all 20,000 at 09:30 in Tokyo and Seoul", async () => {
    t.clock.set("2026-03-01T19:30:05Z");
    const claimed = await tick(t.deps);
    expect(claimed.started).toHaveLength(1);
    runId = claimed.started[0]!;
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    expect(
      await count(sql`select count(*) as n from run_participants where run_id = ${runId} and status = 'pending'`),
    ).toBe(PEOPLE);
    t.clock.set("2026-03-02T00:30:05Z");
    expect((await tick(t.deps)).membersAsked).toBe(PEOPLE);
    expect(
      await count(
        sql`select count(*) as n from pgboss.job where name = 'standup.ask' and (data ->> 'runId')::bigint = ${runId}`,
      ),
    ).toBe(PEOPLE);
  });
});
