import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Fault } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { findInstallation } from "../../chat/installations.repo.ts";
import { schedules } from "../../db/schema.ts";
import { BOT_SCOPES } from "../install/index.ts";

const MINUTE = 60_000;
const NOT_FOUND = "channel_id: no such channel in this workspace; for a private channel, invite the app to it first";
const DOWN = "Could not reach Slack to check the channel";

/**
 * A schedule's channel_id is a reference into the caller's Slack workspace: Slack (the fake, which models
 * each team's own channels) is asked with that workspace's token before anything is stored.
 */
describe("a schedule's channel is checked with Slack", async () => {
  const t = await useTestApp();
  const A = "T0REFA";
  const B = "T0REFB";
  const NOJOIN = "T0REFNOJOIN";
  const botOf = (team: string) => `B${team.slice(1)}BOT`;
  const tokenOf = (team: string) => `xoxb-${team.toLowerCase()}-token`;
  for (const team of [A, B, NOJOIN]) await t.installTeam(team);
  // Team A's token has the scopes an install grants, not the fake's every scope: no chat:write.public, so the
  // bot must really be in a public channel to post its standup there.
  t.fake.addTeam({ id: A, name: `Team ${A}`, botToken: tokenOf(A), botUserId: botOf(A), scopes: [...BOT_SCOPES] });
  // An installation from before channels:join was asked for.
  t.fake.addTeam({
    id: NOJOIN,
    name: `Team ${NOJOIN}`,
    botToken: tokenOf(NOJOIN),
    botUserId: botOf(NOJOIN),
    scopes: BOT_SCOPES.filter((s) => s !== "channels:join"),
  });

  const people = ["U0REFANA", "U0REFBEN"];
  for (const u of people) {
    t.fake.addUser(A, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(A, u);
  }
  t.fake.addChannel(A, { id: "C0REFIN", name: "with-bot", members: [...people, botOf(A)] });
  t.fake.addChannel(A, { id: "C0REFOPEN", name: "without-bot", members: [...people] });
  t.fake.addChannel(A, { id: "C0REFOPEN2", name: "without-bot-2", members: [...people] });
  t.fake.addChannel(A, { id: "G0REFPRIV", name: "private-with-bot", is_private: true, members: [botOf(A)] });
  t.fake.addChannel(A, { id: "G0REFHIDE", name: "private-without-bot", is_private: true, members: people });
  t.fake.addChannel(A, { id: "C0REFARCH", name: "old", is_archived: true, members: [botOf(A)] });
  t.fake.addChannel(A, { id: "C0REFOLD", name: "old-without-bot", is_archived: true, members: [] });
  t.fake.addChannel(B, { id: "C0REFBGEN", name: "general", members: [botOf(B)] });
  t.fake.addChannel(NOJOIN, { id: "C0REFNJ", name: "general", members: [] });
  const adminA = await t.signIn(A, "U0REFAADMIN");
  const adminB = await t.signIn(B, "U0REFBADMIN");
  const adminNoJoin = await t.signIn(NOJOIN, "U0REFNOJOINADMIN");

  const send = (method: "POST" | "PUT", url: string, cookie: string, payload: unknown) =>
    t.inject({
      method,
      url,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
  const create = (cookie: string, body: Record<string, unknown>, path = "/dashboard/api/standups") =>
    send("POST", path, cookie, { schedule_time: "09:00", schedule_tz: "UTC", ...body });
  const storedOf = async (team: string) =>
    (await t.deps.db.select().from(schedules).where(eq(schedules.teamId, team))).map((s) => s.channelId);
  const calls = (method: string, team?: string) =>
    t.fake.callsTo(method).filter((c) => team === undefined || c.teamId === team);
  /** Past every cached answer, so the next check asks Slack. */
  const forgetCache = () => t.clock.advance(2 * MINUTE);

  it("team A's channel id from team B is a 400 naming the field, asked with B's own token, and nothing is stored", async () => {
    forgetCache();
    const before = calls("conversations.info").length;
    for (const path of ["/dashboard/api/standups", "/dashboard/api/schedules"]) {
      const res = await create(adminB, { channel_id: "C0REFIN" }, path);
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toEqual({ error: NOT_FOUND });
    }
    const asked = calls("conversations.info").slice(before);
    expect(asked.map((c) => [c.teamId, c.token, c.args.channel, c.error])).toEqual([
      [B, tokenOf(B), "C0REFIN", "channel_not_found"],
      [B, tokenOf(B), "C0REFIN", "channel_not_found"],
    ]);
    expect(await storedOf(B)).toEqual([]);
    expect(t.fake.channelMembers(A, "C0REFIN")).toEqual([...people, botOf(A)]);
    // B's own channel is fine.
    expect((await create(adminB, { channel_id: "C0REFBGEN" })).statusCode).toBe(201);
    expect(await storedOf(B)).toEqual(["C0REFBGEN"]);
  });

  it("an unknown channel is a 400 and nothing is stored", async () => {
    const res = await create(adminA, { channel_id: "C0NOSUCHCHAN" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: NOT_FOUND });
    expect(await storedOf(A)).not.toContain("C0NOSUCHCHAN");
  });

  it("a private channel the app was not invited to is a 400 with the hint; one it is in is accepted", async () => {
    const hidden = await create(adminA, { channel_id: "G0REFHIDE" });
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().error).toContain("invite the app to it first");
    expect(await storedOf(A)).not.toContain("G0REFHIDE");

    const joinsBefore = calls("conversations.join").length;
    const ok = await create(adminA, { channel_id: "G0REFPRIV" });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().channel_id).toBe("G0REFPRIV");
    expect(calls("conversations.join").length).toBe(joinsBefore);
  });

  it("an archived channel is a 400, whether the bot is in it or not, and nothing is stored", async () => {
    for (const channel of ["C0REFARCH", "C0REFOLD"]) {
      const res = await create(adminA, { channel_id: channel });
      expect(res.statusCode, channel).toBe(400);
      expect(res.json()).toEqual({ error: "channel_id: the channel is archived" });
      expect(await storedOf(A)).not.toContain(channel);
    }
    expect(calls("conversations.join", A).filter((c) => c.args.channel === "C0REFOLD")).toEqual([]);
  });

  it("a public channel the bot is not in is accepted: the bot joins it, and the run posts its thread there", async () => {
    const joinsBefore = calls("conversations.join", A).length;
    const res = await create(adminA, { channel_id: "C0REFOPEN", schedule_days: "mon,tue,wed,thu,fri,sat,sun" });
    expect(res.statusCode, res.body).toBe(201);
    const joins = calls("conversations.join", A).slice(joinsBefore);
    expect(joins.map((c) => [c.token, c.args.channel, c.ok])).toEqual([[tokenOf(A), "C0REFOPEN", true]]);
    expect(t.fake.channelMembers(A, "C0REFOPEN")).toContain(botOf(A));
    expect(await storedOf(A)).toContain("C0REFOPEN");

    const run = await send("POST", `/dashboard/api/standups/${res.json().id}/run`, adminA, {});
    expect(run.statusCode, run.body).toBe(201);
    await t.deps.queue.drain();
    const posts = calls("chat.postMessage", A).filter((c) => c.args.channel === "C0REFOPEN");
    expect(posts.map((c) => c.error ?? "ok")).toEqual(["ok"]);
    expect(t.fake.messages("C0REFOPEN")).toHaveLength(1);
  });

  it("a public channel the bot may not join (no channels:join) is a 400 telling to invite the app; nothing is stored", async () => {
    const res = await create(adminNoJoin, { channel_id: "C0REFNJ" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^channel_id: the app is not in this channel .*invite the app/);
    expect(calls("conversations.join", NOJOIN).map((c) => c.error)).toEqual(["missing_scope"]);
    expect(await storedOf(NOJOIN)).toEqual([]);
    // Once invited, the same request passes.
    t.fake.addChannel(NOJOIN, { id: "C0REFNJ", name: "general", members: [botOf(NOJOIN)] });
    expect((await create(adminNoJoin, { channel_id: "C0REFNJ" })).statusCode).toBe(201);
  });

  it("a second create on the same channel within a minute asks Slack nothing more; after it, Slack is asked again", async () => {
    forgetCache();
    const info = () => calls("conversations.info", A).filter((c) => c.args.channel === "C0REFOPEN2").length;
    const join = () => calls("conversations.join", A).filter((c) => c.args.channel === "C0REFOPEN2").length;
    expect((await create(adminA, { channel_id: "C0REFOPEN2" })).statusCode).toBe(201);
    expect([info(), join()]).toEqual([1, 1]);
    t.clock.advance(30_000);
    expect((await create(adminA, { channel_id: "C0REFOPEN2" }, "/dashboard/api/schedules")).statusCode).toBe(201);
    expect([info(), join()]).toEqual([1, 1]);
    t.clock.advance(31_000);
    expect((await create(adminA, { channel_id: "C0REFOPEN2" })).statusCode).toBe(201);
    // Slack now says the bot is in: no second join.
    expect([info(), join()]).toEqual([2, 1]);
  });

  it("a refusal is not cached: inviting the app to a private channel applies at once", async () => {
    t.fake.addChannel(A, { id: "G0REFLATE", name: "invited-later", is_private: true, members: people });
    expect((await create(adminA, { channel_id: "G0REFLATE" })).statusCode).toBe(400);
    t.fake.addChannel(A, { id: "G0REFLATE", name: "invited-later", is_private: true, members: [...people, botOf(A)] });
    expect((await create(adminA, { channel_id: "G0REFLATE" })).statusCode).toBe(201);
  });

  // Each on a workspace of its own: the refusal also marks the installation as needing reinstall (which ends its
  // sessions, so the next request would be a 401).
  it.each([
    ["invalid_auth", "T0REFTOKA"],
    ["token_revoked", "T0REFTOKB"],
    ["account_inactive", "T0REFTOKC"],
  ])(
    "Slack refusing the workspace's token (%s) is a 400 that says to reinstall, and nothing is stored",
    async (error, team) => {
      await t.installTeam(team);
      t.fake.addChannel(team, { id: `C${team.slice(1)}`, name: "with-bot", members: [botOf(team)] });
      const admin = await t.signIn(team, `U${team.slice(1)}ADMIN`);
      try {
        t.fake.fail("conversations.info", { error }, 10);
        // An invalid_auth marks the installation only when auth.test confirms it (a hiccup must not).
        if (error === "invalid_auth") t.fake.fail("auth.test", { error }, 1);
        const res = await create(admin, { channel_id: `C${team.slice(1)}` });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatch(/^channel_id: Slack no longer accepts this workspace's app token; reinstall/);
      } finally {
        t.fake.reset();
      }
      expect(await storedOf(team)).toEqual([]);
      expect((await findInstallation(t.deps.db, team))?.tokenRefusedError).toBe(error);
    },
  );

  it("a workspace that forbids apps joining channels (restricted_action) is a 400 asking for an invite", async () => {
    t.fake.addChannel(A, { id: "C0REFRESTRICT", name: "restricted", members: [] });
    try {
      t.fake.fail("conversations.join", { error: "restricted_action" }, 10);
      const res = await create(adminA, { channel_id: "C0REFRESTRICT" });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("channel_id: the app cannot join this channel; invite the app to it first");
    } finally {
      t.fake.reset();
    }
    expect(await storedOf(A)).not.toContain("C0REFRESTRICT");
  });

  describe("when Slack cannot answer", () => {
    it.each<[string, Fault]>([
      ["the connection drops", { drop: true }],
      ["Slack answers HTTP 500", { status: 500 }],
      ["Slack answers HTTP 503", { status: 503 }],
      ["Slack answers an API error", { error: "internal_error" }],
      ["Slack keeps answering 429", { status: 429, retryAfter: 1 }],
    ])("a 500 upstream error when %s, and nothing is stored", async (_name, fault) => {
      forgetCache();
      const before = await storedOf(A);
      try {
        t.fake.fail("conversations.info", fault, 10);
        const res = await create(adminA, { channel_id: "C0REFIN" });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ error: DOWN });
      } finally {
        t.fake.reset();
      }
      expect(await storedOf(A)).toEqual(before);
    });

    it("a 500 when the join fails, and nothing is stored", async () => {
      t.fake.addChannel(A, { id: "C0REFJOINDOWN", name: "join-down", members: [] });
      try {
        t.fake.fail("conversations.join", { status: 503 }, 10);
        const res = await create(adminA, { channel_id: "C0REFJOINDOWN" });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ error: "Could not reach Slack to add the app to the channel" });
      } finally {
        t.fake.reset();
      }
      expect(await storedOf(A)).not.toContain("C0REFJOINDOWN");
      expect(t.fake.channelMembers(A, "C0REFJOINDOWN")).toEqual([]);
    });
  });

  it("shape problems answer first: no Slack call for a malformed id or a body that fails on its own", async () => {
    const before = t.fake.calls.length;
    const malformed = await create(adminA, { channel_id: "D0REFDM" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatch(/^channel_id must be a Slack channel id/);
    const user = await create(adminA, { channel_id: "U0REFANA" });
    expect(user.statusCode).toBe(400);
    const blocker = await create(adminA, { channel_id: "C0NOSUCHCHAN", questions: ["One?"], blocker_question: 2 });
    expect(blocker.statusCode).toBe(400);
    expect(blocker.json().error).toMatch(/^blocker_question/);
    expect(t.fake.calls.slice(before)).toEqual([]);
  });

  describe("PUT", async () => {
    forgetCache();
    const created = await create(adminA, { channel_id: "C0REFIN" });
    expect(created.statusCode, created.body).toBe(201);
    const id: string = created.json().id;
    const put = (body: Record<string, unknown>, cookie = adminA) =>
      send("PUT", `/dashboard/api/schedules/${id}`, cookie, body);
    const checks = () => calls("conversations.info").length + calls("conversations.join").length;
    const storedChannel = async () =>
      (await t.deps.db.select().from(schedules).where(eq(schedules.id, id)))[0]?.channelId;

    it("without channel_id, or with the channel it has, Slack is not asked about the channel", async () => {
      forgetCache();
      const before = checks();
      expect((await put({ name: "Renamed" })).statusCode).toBe(200);
      expect((await put({ channel_id: "C0REFIN", schedule_time: "10:00" })).statusCode).toBe(200);
      expect(checks()).toBe(before);
    });

    it("a changed channel is checked: another team's or an archived one is a 400 and the schedule keeps its channel", async () => {
      for (const [channel, error] of [
        ["C0REFBGEN", NOT_FOUND],
        ["C0REFARCH", "channel_id: the channel is archived"],
        ["G0REFHIDE", NOT_FOUND],
      ]) {
        const res = await put({ channel_id: channel, name: "Should not stick" });
        expect(res.statusCode, channel).toBe(400);
        expect(res.json()).toEqual({ error });
        expect(await storedChannel()).toBe("C0REFIN");
      }
      const [row] = await t.deps.db.select().from(schedules).where(eq(schedules.id, id));
      expect(row?.name).not.toBe("Should not stick");
    });

    it("a changed public channel the bot is not in is joined and stored", async () => {
      t.fake.addChannel(A, { id: "C0REFMOVE", name: "moved-here", members: [] });
      const res = await put({ channel_id: "C0REFMOVE" });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().channel_id).toBe("C0REFMOVE");
      expect(await storedChannel()).toBe("C0REFMOVE");
      expect(t.fake.channelMembers(A, "C0REFMOVE")).toEqual([botOf(A)]);
    });

    it("a 500 when Slack cannot check a changed channel, and the schedule keeps its channel", async () => {
      forgetCache();
      try {
        t.fake.fail("conversations.info", { status: 500 }, 10);
        const res = await put({ channel_id: "C0REFIN" });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ error: DOWN });
      } finally {
        t.fake.reset();
      }
      expect(await storedChannel()).toBe("C0REFMOVE");
    });

    it("a standup whose channel was archived later stays editable in its other fields", async () => {
      t.fake.addChannel(A, { id: "C0REFMOVE", name: "moved-here", is_archived: true, members: [botOf(A)] });
      forgetCache();
      const res = await put({ name: "Still editable", channel_id: "C0REFMOVE" });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().name).toBe("Still editable");
    });

    it("another workspace's schedule is a 404 before Slack is asked", async () => {
      const before = checks();
      const res = await put({ channel_id: "C0REFBGEN" }, adminB);
      expect(res.statusCode).toBe(404);
      expect(checks()).toBe(before);
    });
  });
});
