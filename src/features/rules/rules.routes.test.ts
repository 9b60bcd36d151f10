import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { upsertPeople } from "../members/index.ts";

const TEAM = "T0RULES";
const OTHER = "T0RULOTHER";
const ADMIN = "U0RULESADMIN";
const SECOND_ADMIN = "U0RULADMIN2";
const MEMBER = "U0RULMEMBER";
const RETIRED_ADMIN = "U0RULRETIRED";
const OTHER_ADMIN = "U0RULOTHERADMIN";
const BOT = "B0RULESBOT";

interface RuleJson {
  id: number;
  trigger: string;
  trigger_threshold: number | null;
  action: string;
  action_target: string;
  schedule_id: string | null;
  active: boolean;
  created_at: string;
}

type Res = { statusCode: number; json(): unknown; body: string };

function expectError(res: Res, status: number): string {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(["error"]);
  return String(body.error);
}

const TRIGGERS = "blocker_reported, participation_below, mood_below, blocker_open_days";
const ACTIONS = "post_to_channel, dm_admin";

describe("workflow rules API", async () => {
  const t: TestApp = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN });
  await t.installTeam(OTHER, { installer: OTHER_ADMIN });
  await t.addMember(TEAM, SECOND_ADMIN, { role: "admin" });
  await t.addMember(TEAM, MEMBER);
  await upsertPeople(
    t.deps.db,
    TEAM,
    [
      {
        userId: RETIRED_ADMIN,
        realName: "Retired",
        displayName: "retired",
        email: "retired@example.com",
        tz: "UTC",
        active: false,
        slackAdmin: true,
      },
    ],
    t.clock.now(),
  );
  t.fake.addChannel(TEAM, { id: "C0RULPOST", name: "alerts", members: [ADMIN, BOT] });
  t.fake.addChannel(TEAM, { id: "C0RULLEADS", name: "leads", members: [ADMIN, BOT] });
  t.fake.addChannel(TEAM, { id: "C0RULOUT", name: "random", members: [ADMIN] });
  t.fake.addChannel(TEAM, { id: "C0RULFRESH", name: "fresh", members: [ADMIN, BOT] });
  t.fake.addChannel(TEAM, { id: "C0RULARCH", name: "old", members: [BOT], is_archived: true });
  t.fake.addChannel(TEAM, { id: "G0RULSECRET", name: "secret", members: [ADMIN], is_private: true });
  t.fake.addChannel(TEAM, { id: "G0RULPRIV", name: "leads-private", members: [ADMIN, BOT], is_private: true });
  t.fake.addChannel(OTHER, { id: "C0OTHERCH", name: "theirs", members: ["B0RULOTHERBOT"] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0RULPOST", time: "09:00" });
  const deletedSchedule = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: "C0RULPOST",
    time: "10:00",
  });
  await t.deps.db.execute(sql`update schedules set deleted_at = now() where id = ${deletedSchedule}`);
  const otherSchedule = await createSchedule(t.deps.db, t.clock, {
    teamId: OTHER,
    channelId: "C0OTHERCH",
    time: "09:00",
  });
  const admin = await t.signIn(TEAM, ADMIN);
  const member = await t.signIn(TEAM, MEMBER);
  const otherAdmin = await t.signIn(OTHER, OTHER_ADMIN);

  const send = (method: "POST" | "PUT", url: string, cookie: string, payload: unknown) =>
    t.inject({
      method,
      url,
      headers: { cookie, "content-type": "application/json" },
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
  const create = (payload: unknown, cookie = admin) => send("POST", "/dashboard/api/rules", cookie, payload);
  const update = (id: number | string, payload: unknown, cookie = admin) =>
    send("PUT", `/dashboard/api/rules/${id}`, cookie, payload);
  const remove = (id: number | string, cookie = admin) =>
    t.inject({ method: "DELETE", url: `/dashboard/api/rules/${id}`, headers: { cookie } });
  const list = async (cookie = admin): Promise<RuleJson[]> => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/rules", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    return res.json() as RuleJson[];
  };
  const stored = async () =>
    Number(
      (await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from rules where team_id = ${TEAM}`))[0]!.n,
    );
  const created = async (payload: unknown): Promise<RuleJson> => {
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as RuleJson;
  };

  const blockerToChannel = { trigger: "blocker_reported", action: "post_to_channel", action_target: "C0RULPOST" };
  const participationToAdmin = {
    trigger: "participation_below",
    trigger_threshold: 60,
    action: "dm_admin",
    action_target: SECOND_ADMIN,
  };

  it("creates a rule of each trigger: 201 with the rule, listed oldest first", async () => {
    const blocker = await created(blockerToChannel);
    expect(blocker).toEqual({
      id: expect.any(Number),
      trigger: "blocker_reported",
      trigger_threshold: null,
      action: "post_to_channel",
      action_target: "C0RULPOST",
      schedule_id: null,
      active: true,
      created_at: t.clock.now().toISOString(),
      last_fired_at: null,
      fired_count: 0,
    });
    const participation = await created({ ...participationToAdmin, schedule_id: scheduleId });
    expect(participation).toMatchObject({
      trigger: "participation_below",
      trigger_threshold: 60,
      action: "dm_admin",
      action_target: SECOND_ADMIN,
      schedule_id: scheduleId,
      active: true,
    });
    const mood = await created({
      trigger: "mood_below",
      trigger_threshold: 2.5,
      action: "post_to_channel",
      action_target: " G0RULPRIV ",
      active: false,
      extra: "dropped",
    });
    expect(mood).toMatchObject({ trigger: "mood_below", trigger_threshold: 2.5, action_target: "G0RULPRIV" });
    expect(mood.active).toBe(false);
    expect(Object.keys(mood)).not.toContain("extra");
    const all = await list();
    expect(all.map((r) => r.id)).toEqual([blocker.id, participation.id, mood.id]);
    expect(all[1]).toEqual(participation);
  });

  it("every invalid value is a 400 naming the field and what it may be, and stores nothing", async () => {
    const before = await stored();
    const cases: [unknown, string][] = [
      [{ action: "dm_admin", action_target: ADMIN }, `trigger is required: one of ${TRIGGERS}`],
      [{ ...blockerToChannel, trigger: "standup_missed" }, `trigger must be one of ${TRIGGERS}`],
      [{ ...blockerToChannel, trigger: 5 }, `trigger must be one of ${TRIGGERS}`],
      [{ ...blockerToChannel, action: undefined }, `action is required: one of ${ACTIONS}`],
      [{ ...blockerToChannel, action: "email" }, `action must be one of ${ACTIONS}`],
      [{ ...blockerToChannel, action: ["dm_admin"] }, `action must be one of ${ACTIONS}`],
      [
        { ...blockerToChannel, action_target: undefined },
        "action_target is required: a string: a channel id for post_to_channel, the user id of an active admin for dm_admin",
      ],
      [
        { ...blockerToChannel, action_target: 42 },
        "action_target must be a string: a channel id for post_to_channel, the user id of an active admin for dm_admin",
      ],
      [
        { ...blockerToChannel, action_target: "  " },
        "action_target must not be empty: a channel id for post_to_channel, the user id of an active admin for dm_admin",
      ],
      [
        { ...participationToAdmin, trigger_threshold: "60" },
        "trigger_threshold must be a number or null (participation_below: a percentage from 0 to 100; mood_below: an average mood from 1 to 5; blocker_open_days: whole days from 1 to 90; blocker_reported: null)",
      ],
      [
        { ...participationToAdmin, trigger_threshold: undefined },
        "trigger_threshold is required for participation_below: a number from 0 to 100 (a percentage)",
      ],
      [
        { ...participationToAdmin, trigger_threshold: null },
        "trigger_threshold is required for participation_below: a number from 0 to 100 (a percentage)",
      ],
      [
        { ...participationToAdmin, trigger_threshold: 100.5 },
        "trigger_threshold must be a number from 0 to 100 (a percentage) for participation_below",
      ],
      [
        { ...participationToAdmin, trigger_threshold: -1 },
        "trigger_threshold must be a number from 0 to 100 (a percentage) for participation_below",
      ],
      [
        { ...participationToAdmin, trigger: "mood_below", trigger_threshold: 0.5 },
        "trigger_threshold must be a number from 1 to 5 (an average mood score, 😫 1 to 😀 5) for mood_below",
      ],
      [
        { ...participationToAdmin, trigger: "mood_below", trigger_threshold: 6 },
        "trigger_threshold must be a number from 1 to 5 (an average mood score, 😫 1 to 😀 5) for mood_below",
      ],
      [
        { ...participationToAdmin, trigger: "mood_below", trigger_threshold: undefined },
        "trigger_threshold is required for mood_below: a number from 1 to 5 (an average mood score, 😫 1 to 😀 5)",
      ],
      [
        { ...blockerToChannel, trigger_threshold: 3 },
        "trigger_threshold must be null or left out for blocker_reported, which has no threshold",
      ],
      [
        { ...blockerToChannel, trigger: "blocker_open_days" },
        "trigger_threshold is required for blocker_open_days: a whole number of days from 1 to 90",
      ],
      [
        { ...blockerToChannel, trigger: "blocker_open_days", trigger_threshold: 1.5 },
        "trigger_threshold must be a whole number of days from 1 to 90 for blocker_open_days",
      ],
      [
        { ...blockerToChannel, trigger: "blocker_open_days", trigger_threshold: 91 },
        "trigger_threshold must be a whole number of days from 1 to 90 for blocker_open_days",
      ],
      [
        { ...blockerToChannel, action_target: SECOND_ADMIN },
        "action_target must be a channel id such as C0123ABCD for post_to_channel",
      ],
      [
        { ...participationToAdmin, action_target: "C0RULPOST" },
        "action_target must be the user id of an active admin, such as U0123ABCD, for dm_admin",
      ],
      [
        { ...blockerToChannel, schedule_id: 5 },
        "schedule_id must be the id of one of this workspace's standups, or null for every standup",
      ],
      [{ ...blockerToChannel, active: "yes" }, "active must be true or false"],
      [["blocker_reported"], "Request body must be a JSON object"],
      ['"blocker_reported"', "Request body must be a JSON object"],
      ["null", "Request body must be a JSON object"],
      ['{"trigger": "blocker_reported",', "Malformed JSON body"],
    ];
    for (const [payload, message] of cases) {
      expect(expectError(await create(payload), 400), JSON.stringify(payload)).toBe(message);
    }
    expect(await stored()).toBe(before);
  });

  it("a public channel the app is not in yet: the app joins it, since it will post there", async () => {
    const res = await t.inject({
      method: "POST",
      url: "/dashboard/api/rules",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ ...blockerToChannel, action_target: "C0RULOUT" }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(t.fake.callsTo("conversations.join").map((c) => c.args.channel)).toContain("C0RULOUT");
    await t.inject({
      method: "DELETE",
      url: `/dashboard/api/rules/${(res.json() as { id: string }).id}`,
      headers: { cookie: admin },
    });
  });

  it("deleting a standup deletes the rules limited to it; rules for every standup stay", async () => {
    const doomed = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0RULPOST", time: "11:00" });
    const limited = await created({ ...blockerToChannel, schedule_id: doomed });
    const everywhere = await created(blockerToChannel);
    const kept = await created({ ...blockerToChannel, schedule_id: scheduleId });
    const res = await t.inject({
      method: "DELETE",
      url: `/dashboard/api/standups/${doomed}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (await list()).map((r) => r.id);
    expect(ids).not.toContain(limited.id);
    expect(ids).toEqual(expect.arrayContaining([everywhere.id, kept.id]));
    for (const r of [everywhere, kept]) {
      await t.inject({ method: "DELETE", url: `/dashboard/api/rules/${r.id}`, headers: { cookie: admin } });
    }
  });

  it("a target or standup that is not this workspace's is a 400 naming the field", async () => {
    const before = await stored();
    const notFound =
      "action_target: no such channel in this workspace; for a private channel, invite the app to it first";
    const cases: [unknown, string][] = [
      [{ ...blockerToChannel, action_target: "C0NOSUCH" }, notFound],
      // Another workspace's channel does not exist for this workspace's token.
      [{ ...blockerToChannel, action_target: "C0OTHERCH" }, notFound],
      [{ ...blockerToChannel, action_target: "G0RULSECRET" }, notFound],
      [{ ...blockerToChannel, action_target: "C0RULARCH" }, "action_target: the channel is archived"],
      [
        { ...participationToAdmin, action_target: MEMBER },
        "action_target: this member is not an admin; dm_admin needs the user id of an active admin",
      ],
      [
        { ...participationToAdmin, action_target: "U0NOBODY" },
        "action_target: no such member in this workspace; dm_admin needs the user id of an active admin",
      ],
      [
        { ...participationToAdmin, action_target: OTHER_ADMIN },
        "action_target: no such member in this workspace; dm_admin needs the user id of an active admin",
      ],
      [
        { ...participationToAdmin, action_target: RETIRED_ADMIN },
        "action_target: this member is deactivated in this workspace; dm_admin needs the user id of an active admin",
      ],
    ];
    const scheduleMessage =
      "schedule_id: no such standup in this workspace; send the id of one of its standups, or null for every standup";
    for (const id of ["S0NOSUCHONE", otherSchedule, deletedSchedule, "not an id"]) {
      cases.push([{ ...blockerToChannel, schedule_id: id }, scheduleMessage]);
    }
    for (const [payload, message] of cases) {
      expect(expectError(await create(payload), 400), JSON.stringify(payload)).toBe(message);
    }
    expect(await stored()).toBe(before);
  });

  it("when Slack cannot be reached to check the channel, nothing is stored (500)", async () => {
    const before = await stored();
    // The read client retries twice.
    // A channel not checked before: the channel directory keeps Slack's answers for a minute.
    const fresh = { ...blockerToChannel, action_target: "C0RULFRESH" };
    t.fake.fail("conversations.info", { status: 503 }, 3);
    expect(expectError(await create(fresh), 500)).toBe("Could not reach Slack to check the channel");
    expect(await stored()).toBe(before);
    expect((await create(fresh)).statusCode).toBe(201);
  });

  it("PUT turns a rule off and on without asking Slack, and leaves omitted fields as they are", async () => {
    const rule = await created(blockerToChannel);
    const infoCalls = t.fake.callsTo("conversations.info").length;
    const off = await update(rule.id, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ ...rule, active: false });
    expect((await update(rule.id, {})).json()).toEqual({ ...rule, active: false });
    expect((await update(rule.id, { active: true, action_target: "C0RULPOST" })).json()).toEqual(rule);
    expect(t.fake.callsTo("conversations.info").length).toBe(infoCalls);
    expect((await list()).find((r) => r.id === rule.id)).toEqual(rule);
  });

  it("PUT checks the rule as it would be stored: the threshold its trigger needs, the target its action needs", async () => {
    const rule = await created({ ...participationToAdmin });
    expect((await update(rule.id, { trigger_threshold: 75.5 })).json()).toMatchObject({ trigger_threshold: 75.5 });
    // mood_below with the old percentage: out of its range.
    expect(expectError(await update(rule.id, { trigger: "mood_below" }), 400)).toBe(
      "trigger_threshold must be a number from 1 to 5 (an average mood score, 😫 1 to 😀 5) for mood_below",
    );
    expect((await update(rule.id, { trigger: "mood_below", trigger_threshold: 3 })).json()).toMatchObject({
      trigger: "mood_below",
      trigger_threshold: 3,
    });
    // To blocker_reported: the old threshold no longer applies and goes; one sent with it is refused.
    expect(expectError(await update(rule.id, { trigger: "blocker_reported", trigger_threshold: 2 }), 400)).toBe(
      "trigger_threshold must be null or left out for blocker_reported, which has no threshold",
    );
    expect((await update(rule.id, { trigger: "blocker_reported" })).json()).toMatchObject({
      trigger: "blocker_reported",
      trigger_threshold: null,
    });
    expect(expectError(await update(rule.id, { trigger: "participation_below" }), 400)).toBe(
      "trigger_threshold is required for participation_below: a number from 0 to 100 (a percentage)",
    );
    // A channel action with the admin's user id as its target.
    expect(expectError(await update(rule.id, { action: "post_to_channel" }), 400)).toBe(
      "action_target must be a channel id such as C0123ABCD for post_to_channel",
    );
    expect(expectError(await update(rule.id, { action: "post_to_channel", action_target: "C0RULARCH" }), 400)).toBe(
      "action_target: the channel is archived",
    );
    expect(expectError(await update(rule.id, { action_target: MEMBER }), 400)).toBe(
      "action_target: this member is not an admin; dm_admin needs the user id of an active admin",
    );
    const moved = await update(rule.id, {
      action: "post_to_channel",
      action_target: "C0RULLEADS",
      schedule_id: scheduleId,
    });
    expect(moved.json()).toMatchObject({
      action: "post_to_channel",
      action_target: "C0RULLEADS",
      schedule_id: scheduleId,
    });
    expect(expectError(await update(rule.id, { schedule_id: otherSchedule }), 400)).toContain("schedule_id: ");
    expect((await update(rule.id, { schedule_id: null })).json()).toMatchObject({ schedule_id: null });
    for (const [payload, message] of [
      [{ active: "no" }, "active must be true or false"],
      [{ trigger: "sometimes" }, `trigger must be one of ${TRIGGERS}`],
      [{ action: 1 }, `action must be one of ${ACTIONS}`],
      [{ trigger_threshold: true }, "trigger_threshold must be a number or null"],
      [[], "Request body must be a JSON object"],
      ["{active: false}", "Malformed JSON body"],
    ] as const) {
      expect(expectError(await update(rule.id, payload), 400)).toContain(message);
    }
    expect((await list()).find((r) => r.id === rule.id)).toMatchObject({
      trigger: "blocker_reported",
      trigger_threshold: null,
      action: "post_to_channel",
      action_target: "C0RULLEADS",
      schedule_id: null,
      active: true,
    });
  });

  it("DELETE answers {ok: true}; unknown, malformed and other workspaces' ids are 404 on PUT and DELETE", async () => {
    const theirs = (await create({ ...blockerToChannel, action_target: "C0OTHERCH" }, otherAdmin)).json() as RuleJson;
    expect(theirs.id).toEqual(expect.any(Number));
    const mine = await created(blockerToChannel);
    for (const id of [String(theirs.id), "999999", "abc", "1.5", "-1", "0", "99999999999", "1e3"]) {
      expect(expectError(await update(id, { active: false }), 404), id).toBe("Rule not found");
      expect(expectError(await remove(id), 404), id).toBe("Rule not found");
    }
    expect((await list(otherAdmin)).map((r) => r.id)).toEqual([theirs.id]);
    expect((await list(otherAdmin))[0]!.active).toBe(true);
    expect((await list()).some((r) => r.id === theirs.id)).toBe(false);
    const res = await remove(mine.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await list()).some((r) => r.id === mine.id)).toBe(false);
    expectError(await remove(mine.id), 404);
  });

  it("members get 403 and no session gets 401 on every rules endpoint", async () => {
    const rule = await created(blockerToChannel);
    const calls = [
      { method: "GET" as const, url: "/dashboard/api/rules" },
      { method: "POST" as const, url: "/dashboard/api/rules", payload: JSON.stringify(blockerToChannel) },
      { method: "PUT" as const, url: `/dashboard/api/rules/${rule.id}`, payload: '{"active": false}' },
      { method: "DELETE" as const, url: `/dashboard/api/rules/${rule.id}` },
    ];
    for (const c of calls) {
      const headers = c.payload ? { "content-type": "application/json" } : {};
      expect(expectError(await t.inject({ ...c, headers: { ...headers, cookie: member } }), 403)).toBe(
        "Admin required",
      );
      expect(expectError(await t.inject({ ...c, headers }), 401)).toBe("Unauthorized");
    }
    expect((await list()).find((r) => r.id === rule.id)?.active).toBe(true);
  });
});

describe("the cap on rules per workspace", async () => {
  const t: TestApp = await useTestApp();
  const team = "T0RULCAP";
  await t.installTeam(team, { installer: "U0CAPADMIN" });
  const admin = await t.signIn(team, "U0CAPADMIN");
  const create = () =>
    t.inject({
      method: "POST",
      url: "/dashboard/api/rules",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ trigger: "blocker_reported", action: "dm_admin", action_target: "U0CAPADMIN" }),
    });

  it("a workspace holds at most 100 rules: two admins adding the last one at once get one 201 and one 400", async () => {
    for (let i = 0; i < 99; i++) expect((await create()).statusCode).toBe(201);
    const both = await Promise.all([create(), create()]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const refused = both.find((r) => r.statusCode === 400)!;
    expect(refused.json()).toEqual({
      error: "A workspace can have at most 100 rules; delete one before adding another",
    });
    expect((await create()).statusCode).toBe(400);
    const listed = await t.inject({ method: "GET", url: "/dashboard/api/rules", headers: { cookie: admin } });
    expect((listed.json() as unknown[]).length).toBe(100);

    // Full: a channel rule is refused before Slack is asked, so the app joins no channel for nothing.
    t.fake.addChannel(team, { id: "C0CAPOPEN", name: "open", members: ["U0CAPADMIN"] });
    const joins = t.fake.callsTo("conversations.join").length;
    const channelRule = await t.inject({
      method: "POST",
      url: "/dashboard/api/rules",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ trigger: "blocker_reported", action: "post_to_channel", action_target: "C0CAPOPEN" }),
    });
    expect(channelRule.statusCode).toBe(400);
    expect(t.fake.callsTo("conversations.join").length).toBe(joins);
    expect(t.fake.callsTo("conversations.info").filter((c) => c.args.channel === "C0CAPOPEN")).toEqual([]);
  });
});
