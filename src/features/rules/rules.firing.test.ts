import { sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { FakeMessage } from "../../../dev/fake-slack/index.ts";
import { APP_URL, type TestApp, useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import { rows } from "../../db/client.ts";
import { runMaintenance } from "../maintenance/index.ts";
import { tick } from "../standups/index.ts";

const TEAM = "T0FIRE";
const BOT = "B0FIREBOT";
const ADMIN = "U0FIREADMIN";
const OTHER = "T0FIREB";
const OTHER_ADMIN = "U0FBADMIN";
const PEOPLE = { U0FANA: "Ana", U0FBEN: "Ben", U0FCAT: "Cat", U0FDAN: "Dan", U0FEVE: "Eve" } as const;
const ALERTS = "C0FALERT";
const OTHER_ALERTS = "C0FBALERT";

interface Firing {
  rule_id: number;
  run_id: number;
  response_id: number | null;
  outcome: string | null;
}

describe("workflow rules fire exactly once, on their own workspace's events", async () => {
  const logLines: string[] = [];
  const t: TestApp = await useTestApp({
    log: pino({ level: "info" }, { write: (line: string) => void logLines.push(line) }),
  });
  t.clock.set("2026-03-02T08:59:30Z"); // a Monday
  await t.installTeam(TEAM, { installer: ADMIN });
  t.fake.addUser(TEAM, { id: ADMIN, name: "boss", real_name: "Boss" });
  for (const [id, name] of Object.entries(PEOPLE)) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name });
    await t.addMember(TEAM, id, { realName: name });
  }
  t.fake.addChannel(TEAM, { id: "C0FSTAND", name: "fire-standup", members: [...Object.keys(PEOPLE), BOT] });
  t.fake.addChannel(TEAM, { id: "C0FPLAT", name: "platform", members: ["U0FCAT", "U0FDAN", BOT] });
  t.fake.addChannel(TEAM, { id: ALERTS, name: "alerts", members: [ADMIN, BOT] });
  t.fake.addChannel(TEAM, { id: "C0FGONE", name: "doomed", members: [BOT] });
  t.fake.addChannel(TEAM, { id: "G0FPRIV", name: "leads", members: [ADMIN, BOT], is_private: true });
  const teamStandup = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0FSTAND", time: "09:00" });
  const platform = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0FPLAT", time: "09:00" });
  await t.deps.db.execute(sql`update schedules set name = 'Platform sync' where id = ${platform}`);

  await t.installTeam(OTHER, { installer: OTHER_ADMIN });
  t.fake.addChannel(OTHER, { id: OTHER_ALERTS, name: "their-alerts", members: ["B0FIREBBOT"] });

  const admin = await t.signIn(TEAM, ADMIN);
  const otherAdmin = await t.signIn(OTHER, OTHER_ADMIN);
  const createRule = async (body: Record<string, unknown>, cookie = admin): Promise<number> => {
    const res = await t.inject({
      method: "POST",
      url: "/dashboard/api/rules",
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const blockerToAlerts = await createRule({
    trigger: "blocker_reported",
    action: "post_to_channel",
    action_target: ALERTS,
  });
  const platformBlockerToAdmin = await createRule({
    trigger: "blocker_reported",
    action: "dm_admin",
    action_target: ADMIN,
    schedule_id: platform,
  });
  const inactive = await createRule({
    trigger: "blocker_reported",
    action: "post_to_channel",
    action_target: ALERTS,
    active: false,
  });
  const platformBlockerToGone = await createRule({
    trigger: "blocker_reported",
    action: "post_to_channel",
    action_target: "C0FGONE",
    schedule_id: platform,
  });
  const platformBlockerToPrivate = await createRule({
    trigger: "blocker_reported",
    action: "post_to_channel",
    action_target: "G0FPRIV",
    schedule_id: platform,
  });
  const participationToAlerts = await createRule({
    trigger: "participation_below",
    trigger_threshold: 60,
    action: "post_to_channel",
    action_target: ALERTS,
  });
  const platformParticipationToAdmin = await createRule({
    trigger: "participation_below",
    trigger_threshold: 100,
    action: "dm_admin",
    action_target: ADMIN,
    schedule_id: platform,
  });
  const moodToAdmin = await createRule({
    trigger: "mood_below",
    trigger_threshold: 3,
    action: "dm_admin",
    action_target: ADMIN,
  });
  // Team B's rules would fire on anything: they must never see team A's events.
  for (const body of [
    { trigger: "blocker_reported" },
    { trigger: "participation_below", trigger_threshold: 100 },
    { trigger: "mood_below", trigger_threshold: 5 },
  ]) {
    await createRule({ ...body, action: "post_to_channel", action_target: OTHER_ALERTS }, otherAdmin);
  }
  // After the rules were saved, one channel is archived and the app is removed from the private one.
  t.fake.addChannel(TEAM, { id: "C0FGONE", name: "doomed", members: [BOT], is_archived: true });
  t.fake.addChannel(TEAM, { id: "G0FPRIV", name: "leads", members: [ADMIN], is_private: true });

  t.clock.set("2026-03-02T09:00:10Z");
  const started = (await tick(t.deps)).started;
  expect(started).toHaveLength(2);
  await t.deps.queue.drain();
  const runOf = async (scheduleId: string, date: string) =>
    Number(
      (
        await rows<{ id: number }>(
          t.deps.db,
          sql`select id from standup_runs where schedule_id = ${scheduleId} and local_date = ${date}`,
        )
      )[0]!.id,
    );
  const mondayRun = await runOf(teamStandup, "2026-03-02");
  const platformRun = await runOf(platform, "2026-03-02");

  const answer = async (userId: string, runId: number, blockers: string, mood: string | null = null) => {
    const res = await submitStandup(t, TEAM, userId, runId, ["Shipped", "Review", blockers], mood);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    await t.deps.queue.drain();
  };
  const alerts = () => t.fake.messages(ALERTS);
  const adminDms = () => t.fake.messages(t.fake.dmFor(TEAM, ADMIN));
  const firings = (ruleId: number) =>
    rows<Firing>(
      t.deps.db,
      sql`select rule_id, run_id::int as run_id, response_id::int as response_id, outcome
          from rule_firings where rule_id = ${ruleId} order by id`,
    );
  const responseId = async (userId: string, runId: number) =>
    Number(
      (
        await rows<{ id: number }>(
          t.deps.db,
          sql`select id from responses where run_id = ${runId} and user_id = ${userId}`,
        )
      )[0]!.id,
    );
  const buttonUrl = (m: FakeMessage) =>
    (m.blocks as { type: string; elements?: { url?: string }[] }[]).find((b) => b.type === "actions")?.elements?.[0]
      ?.url;
  const teamBUntouched = async () => {
    expect(t.fake.messages(OTHER_ALERTS)).toEqual([]);
    expect(await rows(t.deps.db, sql`select id from rule_firings where team_id = ${OTHER}`)).toEqual([]);
  };

  it("a blocker in a first answer is posted once to the rule's channel: who, the blocker, the standup, the day, the report", async () => {
    await answer("U0FANA", mondayRun, "Waiting on the <API> keys & @channel", "😕");
    expect(alerts()).toHaveLength(1);
    const post = alerts()[0]!;
    expect(post.text).toBe(
      "Blocker from Ana in #fire-standup standup: Waiting on the &lt;API&gt; keys &amp; @\u200bchannel",
    );
    const blocks = JSON.stringify(post.blocks);
    expect(blocks).toContain("Blocker from Ana");
    expect(blocks).toContain("#fire-standup standup · Monday 2 March 2026");
    expect(blocks).toContain(">Waiting on the &lt;API&gt; keys &amp; @\u200bchannel");
    expect(buttonUrl(post)).toBe(
      `${APP_URL}/dashboard/reports?from=2026-03-02&to=2026-03-02&standup=${teamStandup}&member=U0FANA`,
    );
    // The inactive rule and the rule of the other standup stay silent; nobody is DMed.
    expect(await firings(inactive)).toEqual([]);
    expect(await firings(platformBlockerToAdmin)).toEqual([]);
    expect(adminDms()).toEqual([]);
    expect(await firings(blockerToAlerts)).toEqual([
      {
        rule_id: blockerToAlerts,
        run_id: mondayRun,
        response_id: await responseId("U0FANA", mondayRun),
        outcome: "posted",
      },
    ]);
    await teamBUntouched();
  });

  it("later edits never post it again, nor does the event or the job coming twice", async () => {
    await answer("U0FANA", mondayRun, "Still waiting on the API keys", "😕");
    await answer("U0FANA", mondayRun, "Blocked by the API keys, day two", "😕");
    const id = await responseId("U0FANA", mondayRun);
    // The same event again (a second instance, a replay) and the same job again: the firing's key holds.
    await t.deps.db.transaction((tx) =>
      t.deps.events.emit(tx, {
        type: "blocker.reported",
        teamId: TEAM,
        data: {
          responseId: id,
          runId: mondayRun,
          scheduleId: teamStandup,
          userId: "U0FANA",
          standupDate: "2026-03-02",
        },
        at: t.clock.now(),
      }),
    );
    const [firing] = await rows<{ id: number }>(
      t.deps.db,
      sql`select id::int as id from rule_firings where rule_id = ${blockerToAlerts}`,
    );
    await t.deps.queue.enqueue("rules.fire", { teamId: TEAM, firingId: firing!.id });
    await t.deps.queue.drain();
    expect(alerts()).toHaveLength(1);
    expect(await firings(blockerToAlerts)).toHaveLength(1);
  });

  it("a blocker added by an edit is posted once, and not again on later edits", async () => {
    await answer("U0FBEN", mondayRun, "none", "😫");
    expect(alerts()).toHaveLength(1);
    await answer("U0FBEN", mondayRun, "Laptop broke", "😫");
    expect(alerts()).toHaveLength(2);
    expect(alerts()[1]!.text).toBe("Blocker from Ben in #fire-standup standup: Laptop broke");
    await answer("U0FBEN", mondayRun, "Laptop still broken", "😫");
    await answer("U0FBEN", mondayRun, "n/a", "😫");
    await answer("U0FBEN", mondayRun, "Laptop broke again", "😫");
    expect(alerts()).toHaveLength(2);
    expect(await firings(blockerToAlerts)).toHaveLength(2);
    expect(adminDms()).toEqual([]);
  });

  it("a rule limited to a standup fires only for it; a DM opens the admin's IM; a gone channel gives up without retrying", async () => {
    const postsBefore = t.fake.callsTo("chat.postMessage").length;
    await answer("U0FCAT", platformRun, "Prod access pending", "😀");
    // The rule for every standup and the one for this standup both fire.
    expect(alerts()).toHaveLength(3);
    expect(alerts()[2]!.text).toBe("Blocker from Cat in Platform sync: Prod access pending");
    expect(t.fake.callsTo("conversations.open").filter((c) => c.args.users === ADMIN)).toHaveLength(1);
    expect(adminDms()).toHaveLength(1);
    expect(adminDms()[0]!.text).toBe("Blocker from Cat in Platform sync: Prod access pending");
    expect(buttonUrl(adminDms()[0]!)).toBe(
      `${APP_URL}/dashboard/reports?from=2026-03-02&to=2026-03-02&standup=${platform}&member=U0FCAT`,
    );
    // The archived channel: one attempt, a warning, the job ends (no retry later), nothing posted there.
    const gone = t.fake
      .callsTo("chat.postMessage")
      .slice(postsBefore)
      .filter((c) => c.args.channel === "C0FGONE");
    expect(gone.map((c) => c.error)).toEqual(["is_archived"]);
    expect((await firings(platformBlockerToGone)).map((f) => f.outcome)).toEqual(["gave_up:is_archived"]);
    expect((await firings(platformBlockerToPrivate)).map((f) => f.outcome)).toEqual(["gave_up:channel_not_found"]);
    expect(t.fake.callsTo("chat.postMessage").filter((c) => c.args.channel === "G0FPRIV")).toHaveLength(1);
    expect(await t.deps.queue.pending("rules.fire")).toBe(0);
    await t.deps.queue.drain();
    expect(t.fake.callsTo("chat.postMessage").filter((c) => c.args.channel === "C0FGONE")).toHaveLength(1);
    const warning = logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find(
        (l) =>
          l.msg === "workflow rule gave up: Slack or the workspace refuses its target" &&
          l.rule_id === platformBlockerToGone,
      );
    expect(warning).toMatchObject({
      level: 40,
      team_id: TEAM,
      rule_id: platformBlockerToGone,
      outcome: "gave_up:is_archived",
    });
    expect(JSON.stringify(warning)).not.toContain("Prod access");
    await teamBUntouched();
  });

  it("at the close, participation and mood below their thresholds are posted once, however often and concurrently the scheduler ticks", async () => {
    t.clock.set("2026-03-03T00:00:30Z");
    const ticks = await Promise.all([tick(t.deps), tick(t.deps)]);
    expect(ticks.reduce((n, r) => n + r.closed, 0)).toBe(2);
    await tick(t.deps);
    await t.deps.queue.drain();
    await tick(t.deps);
    await t.deps.queue.drain();

    const participation = alerts().filter((m) => m.text.startsWith("Participation"));
    expect(participation.map((m) => m.text).sort()).toEqual([
      "Participation 40 % (2 of 5) is below 60 %: #fire-standup standup, Monday 2 March 2026",
      "Participation 50 % (1 of 2) is below 60 %: Platform sync, Monday 2 March 2026",
    ]);
    const monday = participation.find((m) => m.text.includes("2 of 5"))!;
    expect(JSON.stringify(monday.blocks)).toContain("*Participation 40 % (2 of 5) is below 60 %*");
    expect(buttonUrl(monday)).toBe(`${APP_URL}/dashboard/reports?from=2026-03-02&to=2026-03-02&standup=${teamStandup}`);

    // The admin: participation of the platform standup only (its rule is limited to it), and the mood of the
    // team standup (Ana 😕 2, Ben 😫 1); the platform's mood (Cat 😀 5) is not below 3.
    const dms = adminDms().slice(1);
    expect(dms.map((m) => m.text).sort()).toEqual([
      "Mood 1.5 (average of 2 answers) is below 3: #fire-standup standup, Monday 2 March 2026",
      "Participation 50 % (1 of 2) is below 100 %: Platform sync, Monday 2 March 2026",
    ]);
    expect(await firings(platformParticipationToAdmin)).toEqual([
      { rule_id: platformParticipationToAdmin, run_id: platformRun, response_id: null, outcome: "posted" },
    ]);
    const moods = new Map((await firings(moodToAdmin)).map((f) => [f.run_id, f.outcome]));
    expect(moods).toEqual(
      new Map([
        [mondayRun, "posted"],
        [platformRun, "not_below"],
      ]),
    );
    expect((await firings(participationToAlerts)).map((f) => f.outcome)).toEqual(["posted", "posted"]);
    await teamBUntouched();

    // The rules list tells each rule's history: only firings that posted count (not_below, gave_up do not).
    const listed = await t.inject({ method: "GET", url: "/dashboard/api/rules", headers: { cookie: admin } });
    const fired = new Map(
      (listed.json() as { id: number; last_fired_at: string | null; fired_count: number }[]).map((r) => [
        r.id,
        [r.last_fired_at, r.fired_count],
      ]),
    );
    expect(fired.get(participationToAlerts)).toEqual(["2026-03-03T00:00:30.000Z", 2]);
    expect(fired.get(moodToAdmin)).toEqual(["2026-03-03T00:00:30.000Z", 1]);
    expect(fired.get(platformBlockerToGone)).toEqual([null, 0]);
    expect(fired.get(inactive)).toEqual([null, 0]);
    expect(fired.get(blockerToAlerts)?.[1]).toBe(3);
    // An edit answers with the same history.
    const edited = await t.inject({
      method: "PUT",
      url: `/dashboard/api/rules/${participationToAlerts}`,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ trigger_threshold: 70 }),
    });
    expect(edited.json()).toMatchObject({ last_fired_at: "2026-03-03T00:00:30.000Z", fired_count: 2 });
    // Another workspace's list counts nothing of this one's.
    const theirs = await t.inject({ method: "GET", url: "/dashboard/api/rules", headers: { cookie: otherAdmin } });
    for (const r of theirs.json() as { fired_count: number }[]) expect(r.fired_count).toBe(0);
  });

  it("a day everyone answers without a mood fires neither close rule", async () => {
    await t.deps.db.execute(sql`update schedules set active = false where id = ${platform}`);
    const before = { alerts: alerts().length, dms: adminDms().length };
    t.clock.set("2026-03-03T09:00:10Z");
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    const tuesdayRun = await runOf(teamStandup, "2026-03-03");
    for (const userId of Object.keys(PEOPLE)) await answer(userId, tuesdayRun, "none");
    t.clock.set("2026-03-04T00:00:30Z");
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
    expect({ alerts: alerts().length, dms: adminDms().length }).toEqual(before);
    const outcomes = await rows<{ rule_id: number; outcome: string }>(
      t.deps.db,
      sql`select rule_id, outcome from rule_firings where run_id = ${tuesdayRun} order by rule_id`,
    );
    expect(outcomes).toEqual([
      { rule_id: participationToAlerts, outcome: "not_below" },
      { rule_id: moodToAdmin, outcome: "no_data" },
    ]);
  });

  it("firings older than 90 days are pruned by the daily maintenance, in every workspace", async () => {
    const now = t.clock.now().getTime();
    const day = 86_400_000;
    const insert = (team: string, ruleId: number, runId: number, ageDays: number) =>
      t.deps.db.execute(
        sql`insert into rule_firings (team_id, rule_id, run_id, created_at)
            values (${team}, ${ruleId}, ${runId}, ${new Date(now - ageDays * day).toISOString()})`,
      );
    await insert(TEAM, participationToAlerts, 900_001, 91);
    await insert(TEAM, participationToAlerts, 900_002, 89);
    await insert(OTHER, 1, 900_003, 120);
    const result = await runMaintenance(t.deps, t.clock.now());
    expect(result.pruned.rule_firings).toBe(2);
    const left = await rows<{ run_id: number }>(
      t.deps.db,
      sql`select run_id::int as run_id from rule_firings where run_id >= 900000 order by run_id`,
    );
    expect(left.map((r) => r.run_id)).toEqual([900_002]);
  });
});
