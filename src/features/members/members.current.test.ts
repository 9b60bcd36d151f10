import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FakeUserInput } from "../../../dev/fake-slack/index.ts";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { finishOAuth, startOAuth } from "../../../test/support/oauth.ts";
import { rows } from "../../db/client.ts";
import { BOT_SCOPES } from "../install/index.ts";
import { issueLoginToken } from "../session/index.ts";
import { dailySyncDue, memberSyncTick } from "./member-sync.ts";
import { activityOf, ensureMember, INTERACTIVE_LOOKUP_MS } from "./members.ensure.ts";

/** Members added on the spot (slash command, App Home, DM, sign-in), the installer's profile, the daily resync. */
describe("members always current", async () => {
  const t: TestApp = await useTestApp();

  const person = (id: string, extra: Partial<FakeUserInput> = {}): FakeUserInput => ({
    id,
    name: id.toLowerCase(),
    real_name: `Person ${id}`,
    email: `${id.toLowerCase()}@current.test`,
    tz: "Europe/Madrid",
    ...extra,
  });
  const memberRow = async (teamId: string, userId: string) =>
    (
      await rows<{ real_name: string; email: string; tz: string; active: boolean; role: string }>(
        t.deps.db,
        sql`select real_name, email, tz, active, role from members where team_id = ${teamId} and user_id = ${userId}`,
      )
    )[0];
  const memberCount = async (teamId: string, userId: string) =>
    (
      await rows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from members where team_id = ${teamId} and user_id = ${userId}`,
      )
    )[0]!.n;
  /** The sign-in path of a link Upbeat gave in Slack (the app's URL is not this test server). */
  const linkIn = (text: string): string => {
    const m = /\/dashboard\/login\?t=[A-Za-z0-9_.%-]+/.exec(text);
    expect(m, "a sign-in link").not.toBeNull();
    return m![0];
  };
  let address = 0;
  const open = (path: string) => {
    address += 1;
    return t.inject({ method: "GET", url: path, remoteAddress: `10.77.0.${address}` });
  };
  const signedIn = async (path: string) => {
    const res = await open(path);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe("/dashboard");
    return String([res.headers["set-cookie"]].flat().find((c) => c?.startsWith("svc_session="))).split(";")[0]!;
  };
  /** members.sync jobs not finished yet, read from the queue's table (its own counters lag behind). */
  const syncJobsWaiting = async (teamId?: string) =>
    (
      await rows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from pgboss.job where name = 'members.sync'
            and state in ('created', 'retry', 'active') and (${teamId ?? null}::text is null or data->>'teamId' = ${teamId ?? null})`,
      )
    )[0]!.n;
  const usersInfo = (teamId: string) => t.fake.callsTo("users.info").filter((c) => c.teamId === teamId);

  describe("the installer", () => {
    it("has their Slack name, e-mail, timezone and admin role as soon as the install redirects, before any sync", async () => {
      t.fake.addTeam({ id: "T0CINST", name: "Install Co", botToken: "xoxb-t0cinst-secret", botUserId: "UT0CINSTBOT" });
      t.fake.addUser("T0CINST", person("U0CINSTALLER", { real_name: "Ada Installer", tz: "Asia/Tokyo" }));
      t.fake.setOAuthCode("code-cinst", {
        team: { id: "T0CINST", name: "Install Co" },
        botToken: "xoxb-t0cinst-secret",
        botUserId: "UT0CINSTBOT",
        scope: BOT_SCOPES.join(","),
        authedUserId: "U0CINSTALLER",
        clientId: "test-client-id",
        clientSecret: "test-client-secret",
      });
      const cb = await finishOAuth(t, await startOAuth(t), "code=code-cinst");
      expect(cb.statusCode).toBe(302);
      // No job has run: the sync is still queued.
      expect(await syncJobsWaiting("T0CINST")).toBe(1);
      expect(await memberRow("T0CINST", "U0CINSTALLER")).toEqual({
        real_name: "Ada Installer",
        email: "u0cinstaller@current.test",
        tz: "Asia/Tokyo",
        active: true,
        role: "admin",
      });
      const cookie = await signedIn(String(cb.headers.location));
      const members = await t.inject({ method: "GET", url: "/dashboard/api/members", headers: { cookie } });
      expect(members.json()).toEqual([
        expect.objectContaining({ user_id: "U0CINSTALLER", real_name: "Ada Installer" }),
      ]);
      const status = await t.inject({ method: "GET", url: "/dashboard/api/members/sync", headers: { cookie } });
      expect(status.json()).toMatchObject({ state: "queued", reason: "install", started_at: null });
      await t.deps.queue.drain();
    });

    it("a failing users.info does not break the install: still admin, still signed in, the sync still runs", async () => {
      t.fake.addTeam({ id: "T0CFAIL", name: "Fail Co", botToken: "xoxb-t0cfail-secret", botUserId: "UT0CFAILBOT" });
      t.fake.addUser("T0CFAIL", person("U0CFAILER", { real_name: "Fay Failer" }));
      t.fake.setOAuthCode("code-cfail", {
        team: { id: "T0CFAIL", name: "Fail Co" },
        botToken: "xoxb-t0cfail-secret",
        botUserId: "UT0CFAILBOT",
        scope: BOT_SCOPES.join(","),
        authedUserId: "U0CFAILER",
        clientId: "test-client-id",
        clientSecret: "test-client-secret",
      });
      t.fake.fail("users.info", { status: 500 }, 5);
      const cb = await finishOAuth(t, await startOAuth(t), "code=code-cfail");
      expect(cb.statusCode).toBe(302);
      // No name yet (never the id as one): pages say "Unnamed member" until the sync brings it.
      expect(await memberRow("T0CFAIL", "U0CFAILER")).toMatchObject({ real_name: "", role: "admin" });
      await signedIn(String(cb.headers.location));
      t.fake.reset();
      await t.deps.queue.drain();
      expect(await memberRow("T0CFAIL", "U0CFAILER")).toMatchObject({ real_name: "Fay Failer", role: "admin" });
    });
  });

  describe("people the sync has not reached yet", async () => {
    const TEAM = "T0CNOW";
    await t.installTeam(TEAM);
    t.fake.addUser(TEAM, person("U0CSLASH"));
    t.fake.addUser(TEAM, person("U0CHOME"));
    t.fake.addUser(TEAM, person("U0CDM"));
    t.fake.addUser(TEAM, person("U0CTWICE"));
    t.fake.addUser(TEAM, person("U0CLINK"));
    t.fake.addUser(TEAM, person("U0CSLOW"));
    t.fake.addUser(TEAM, person("U0CBOT", { is_bot: true }));
    t.fake.addUser(TEAM, person("U0CAPP", { is_app_user: true }));
    t.fake.addUser(TEAM, person("U0CLEFT", { deleted: true }));

    it("the slash command's link signs in at once (through /dashboard/login)", async () => {
      expect(await memberRow(TEAM, "U0CSLASH")).toBeUndefined();
      const res = await t.sendCommand(TEAM, "U0CSLASH", "");
      expect(res.statusCode).toBe(200);
      const cookie = await signedIn(linkIn(res.body));
      const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } });
      expect(me.json()).toMatchObject({ user_id: "U0CSLASH", team_id: TEAM, role: "member" });
      expect(await memberRow(TEAM, "U0CSLASH")).toEqual({
        real_name: "Person U0CSLASH",
        email: "u0cslash@current.test",
        tz: "Europe/Madrid",
        active: true,
        role: "member",
      });
    });

    it("opening App Home adds them, and the Home tab's link signs in", async () => {
      await t.sendEvent(TEAM, { type: "app_home_opened", user: "U0CHOME", channel: "D0CHOME", tab: "home" });
      await t.app.settle();
      expect(await memberRow(TEAM, "U0CHOME")).toMatchObject({ active: true, email: "u0chome@current.test" });
      const home = t.fake.homeView(TEAM, "U0CHOME");
      expect(home).toBeDefined();
      await signedIn(linkIn(JSON.stringify(home)));
    });

    it("a DM to the app adds them", async () => {
      await t.sendEvent(TEAM, {
        type: "message",
        channel_type: "im",
        channel: "D0CDM",
        user: "U0CDM",
        text: "hello",
        ts: "1700000000.000100",
      });
      await t.app.settle();
      expect(await memberRow(TEAM, "U0CDM")).toMatchObject({ active: true, real_name: "Person U0CDM" });
      await signedIn(`/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, TEAM, "U0CDM"))}`);
    });

    it("a sign-in link of someone still unknown adds them when Slack says they are an active person here", async () => {
      expect(await memberRow(TEAM, "U0CLINK")).toBeUndefined();
      await signedIn(`/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, TEAM, "U0CLINK"))}`);
      expect(await memberRow(TEAM, "U0CLINK")).toMatchObject({ active: true, role: "member" });
    });

    it("bots, app users, deactivated and unknown Slack users are never added, and their links answer 403", async () => {
      for (const id of ["U0CBOT", "U0CAPP", "U0CLEFT", "U0CNOSUCH"]) {
        const res = await t.sendCommand(TEAM, id, "");
        expect(res.statusCode).toBe(200);
        await t.sendEvent(TEAM, { type: "app_home_opened", user: id, channel: `D${id}`, tab: "home" });
        await t.app.settle();
        const page = await open(linkIn(res.body));
        expect(page.statusCode, id).toBe(403);
        expect(page.body).toContain("not an active member");
        expect(await memberRow(TEAM, id), id).toBeUndefined();
      }
    });

    it("a person of another workspace (a shared channel) is never added, even when Slack describes them", async () => {
      // Slack answers users.info for an external user of a Slack Connect channel with their own team id.
      const external = {
        id: "U0CEXTERNAL",
        team_id: "T0SOMEWHEREELSE",
        name: "ext",
        real_name: "Ext Ernal",
        deleted: false,
        is_bot: false,
        profile: { real_name: "Ext Ernal", email: "ext@else.test" },
      };
      const chat = {
        forTeam: async () => ({ users: { info: async () => ({ ok: true, user: external }) } }),
      } as unknown as typeof t.deps.chat;
      expect(await ensureMember({ ...t.deps, chat }, TEAM, "U0CEXTERNAL", { deadlineMs: 1_000 })).toBe(false);
      expect(await memberRow(TEAM, "U0CEXTERNAL")).toBeUndefined();
      // The same answer with this workspace's id is a person of ours.
      const ours = { ...external, team_id: TEAM };
      const ourChat = {
        forTeam: async () => ({ users: { info: async () => ({ ok: true, user: ours }) } }),
      } as unknown as typeof t.deps.chat;
      expect(await ensureMember({ ...t.deps, chat: ourChat }, TEAM, "U0CEXTERNAL", { deadlineMs: 1_000 })).toBe(true);
      expect(await memberRow(TEAM, "U0CEXTERNAL")).toMatchObject({ active: true, real_name: "Ext Ernal" });
    });

    it("only people acting count: bot messages, edits and other events trigger no look-up", () => {
      const event = (e: Record<string, unknown>) => activityOf({ type: "event_callback", team_id: TEAM, event: e });
      expect(event({ type: "message", channel_type: "im", user: "U0CX" })).toMatchObject({ userId: "U0CX" });
      expect(event({ type: "message", channel_type: "im", user: "U0CX", bot_id: "B1" })).toBeUndefined();
      expect(event({ type: "message", channel_type: "im", user: "U0CX", subtype: "message_changed" })).toBeUndefined();
      expect(event({ type: "message", channel_type: "channel", user: "U0CX" })).toBeUndefined();
      expect(event({ type: "reaction_added", user: "U0CX" })).toBeUndefined();
      expect(event({ type: "app_home_opened", user: "U0CX" })).toMatchObject({ deadlineMs: 3_000 });
      expect(activityOf({ command: "/upbeat", team_id: TEAM, user_id: "U0CX" })).toMatchObject({
        deadlineMs: INTERACTIVE_LOOKUP_MS,
      });
      expect(activityOf({ type: "block_actions", team: { id: TEAM }, user: { id: "U0CX" } })).toBeDefined();
      expect(activityOf({ command: "/upbeat", team_id: TEAM, user_id: "not an id" })).toBeUndefined();
    });

    it("two slash commands at once from the same new person: both answer, one member row", async () => {
      const before = usersInfo(TEAM).length;
      const [a, b] = await Promise.all([t.sendCommand(TEAM, "U0CTWICE", ""), t.sendCommand(TEAM, "U0CTWICE", "help")]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(await memberCount(TEAM, "U0CTWICE")).toBe(1);
      // Asked once: the second waited for the first look-up.
      expect(usersInfo(TEAM).length - before).toBe(1);
      await signedIn(linkIn(a.body));
      await signedIn(linkIn(b.body));
    });

    it("when Slack is slow the command still answers in time, and the link works once Slack has answered", async () => {
      t.fake.fail("users.info", { delayMs: 2_000 });
      const started = Date.now();
      const res = await t.sendCommand(TEAM, "U0CSLOW", "");
      const took = Date.now() - started;
      expect(res.statusCode).toBe(200);
      expect(took).toBeLessThan(INTERACTIVE_LOOKUP_MS + 900);
      const link = linkIn(res.body);
      await signedIn(link);
      expect(await memberRow(TEAM, "U0CSLOW")).toMatchObject({ active: true });
    });
  });

  describe("the daily resync", async () => {
    const TEAM = "T0CDAILY";
    await t.installTeam(TEAM);
    const INSTALLER = "U0CDAILYADMIN";
    const regular = (i: number) => `U0CD${String(i).padStart(4, "0")}`;
    t.fake.addUser(TEAM, person(INSTALLER, { is_owner: true }));
    for (let i = 1; i <= 250; i++) t.fake.addUser(TEAM, person(regular(i)));
    t.fake.addUser(TEAM, person("U0CDLEAVER"));
    t.fake.addUser(TEAM, person("U0CDRETURN", { deleted: true }));
    // Known to Upbeat from before; Slack no longer lists them at all (removed from the workspace).
    await t.addMember(TEAM, "U0CDVANISHED");
    await t.addMember(TEAM, "U0CDLEAVER");
    await t.addMember(TEAM, "U0CDRETURN");
    await rows(t.deps.db, sql`update members set active = false where team_id = ${TEAM} and user_id = 'U0CDRETURN'`);
    // The person who joined while Upbeat was not listening (a missed team_join) is regular(250).
    const listCalls = () => t.fake.callsTo("users.list").filter((c) => c.teamId === TEAM);
    const syncRow = async () =>
      (
        await rows<{ daily_date: string | null; state: string; outcome: string | null }>(
          t.deps.db,
          sql`select daily_date::text, state, outcome from member_syncs where team_id = ${TEAM}`,
        )
      )[0];

    it("is due once a day at the workspace's own time of day (stable, spread by team id)", () => {
      const a = dailySyncDue(TEAM, new Date("2026-03-03T00:00:00Z"));
      const b = dailySyncDue(TEAM, new Date("2026-03-03T23:59:00Z"));
      expect(a).toEqual(b);
      expect(a.day).toBe("2026-03-03");
      const other = dailySyncDue("T0SOMEONEELSE", new Date("2026-03-03T00:00:00Z"));
      expect(other.due.getTime()).not.toBe(a.due.getTime());
    });

    it("before its time nothing runs; at its time it pages users.list, adds the missed join, deactivates the deleted and vanished, reactivates the returning, survives a 429", async () => {
      const { due } = dailySyncDue(TEAM, new Date("2026-03-03T12:00:00Z"));
      t.clock.set(new Date(due.getTime() - 60_000));
      // Everything other workspaces of this file have pending is out of the way, and their days are claimed.
      await memberSyncTick(t.deps);
      await t.deps.queue.drain();
      expect((await memberSyncTick(t.deps)).queued).not.toContain(TEAM);
      expect(await memberRow(TEAM, regular(250))).toBeUndefined();

      t.fake.addUser(TEAM, person("U0CDLEAVER", { deleted: true }));
      t.fake.addUser(TEAM, person("U0CDRETURN", { real_name: "Back Again" }));
      t.clock.set(due);
      const before = listCalls().length;
      t.fake.fail("users.list", { status: 429, retryAfter: 1 });
      expect((await memberSyncTick(t.deps)).queued).toEqual([TEAM]);
      await t.deps.queue.drain();

      const calls = listCalls().slice(before);
      // The 429, its retry after Retry-After, and two more pages: 254 people at 200 a page.
      expect(calls.map((c) => c.ok)).toEqual([false, true, true]);
      expect(calls.every((c) => c.args.limit === "200")).toBe(true);
      expect(calls[2]!.args.cursor).toEqual(expect.any(String));
      expect(await memberRow(TEAM, regular(250))).toMatchObject({ active: true, role: "member" });
      expect(await memberRow(TEAM, regular(1))).toMatchObject({ active: true });
      expect(await memberRow(TEAM, "U0CDLEAVER")).toMatchObject({ active: false });
      expect(await memberRow(TEAM, "U0CDVANISHED")).toMatchObject({ active: false });
      expect(await memberRow(TEAM, "U0CDRETURN")).toMatchObject({ active: true, real_name: "Back Again" });
      expect(await memberRow(TEAM, INSTALLER)).toMatchObject({ active: true, role: "admin" });
      expect(await syncRow()).toEqual({ daily_date: "2026-03-03", state: "idle", outcome: "ok" });

      const admin = await t.signIn(TEAM, INSTALLER);
      const status = await t.inject({ method: "GET", url: "/dashboard/api/members/sync", headers: { cookie: admin } });
      expect(status.json()).toMatchObject({
        state: "idle",
        reason: "daily",
        outcome: "ok",
        error: null,
        started_at: due.toISOString(),
        finished_at: due.toISOString(),
        listed: 253,
        deactivated: 2,
        reactivated: 1,
        next_daily_at: new Date(due.getTime() + 86_400_000).toISOString(),
      });
      // 250 regular + the installer's placeholder row updated, not added; the newcomers are the 249 + 1 unseen.
      expect(status.json().added).toBe(250);
    });

    it("runs once a day: later ticks that day queue nothing; the next day it runs again", async () => {
      const before = listCalls().length;
      t.clock.advance(3600_000);
      expect((await memberSyncTick(t.deps)).queued).toEqual([]);
      await t.deps.queue.drain();
      expect(listCalls().length).toBe(before);
      const next = dailySyncDue(TEAM, new Date(t.clock.now().getTime() + 86_400_000)).due;
      t.clock.set(next);
      expect((await memberSyncTick(t.deps)).queued).toContain(TEAM);
      await t.deps.queue.drain();
      expect(listCalls().length).toBe(before + 2);
    });

    it("ticks racing on one database queue it once", async () => {
      const next = dailySyncDue(TEAM, new Date(t.clock.now().getTime() + 86_400_000)).due;
      t.clock.set(next);
      const results = await Promise.all([memberSyncTick(t.deps), memberSyncTick(t.deps), memberSyncTick(t.deps)]);
      expect(results.flatMap((r) => r.queued).filter((id) => id === TEAM)).toHaveLength(1);
      expect(await syncJobsWaiting(TEAM)).toBe(1);
      await t.deps.queue.drain();
    });
  });

  describe("POST /dashboard/api/members/sync", async () => {
    const TEAM = "T0CPOST";
    await t.installTeam(TEAM);
    t.fake.addUser(TEAM, person("U0CPOSTADMIN", { is_admin: true }));
    t.fake.addUser(TEAM, person("U0CPOSTMEM"));
    await t.addMember(TEAM, "U0CPOSTADMIN", { role: "admin" });
    await t.addMember(TEAM, "U0CPOSTMEM");
    const admin = await t.signIn(TEAM, "U0CPOSTADMIN");
    const member = await t.signIn(TEAM, "U0CPOSTMEM");
    const post = (cookie?: string) =>
      t.inject({
        method: "POST",
        url: "/dashboard/api/members/sync",
        headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" },
        payload: "{}",
      });

    it("401 without a session, 403 for a member (GET too), nothing queued", async () => {
      await t.deps.queue.drain();
      expect((await post()).statusCode).toBe(401);
      const forbidden = await post(member);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual({ error: expect.any(String) });
      expect((await t.inject({ method: "GET", url: "/dashboard/api/members/sync" })).statusCode).toBe(401);
      const get = await t.inject({ method: "GET", url: "/dashboard/api/members/sync", headers: { cookie: member } });
      expect(get.statusCode).toBe(403);
      expect(await syncJobsWaiting()).toBe(0);
    });

    it("202 queued for an admin; asked again while it waits: 202 already_queued and still one job; after it ran the status says so", async () => {
      t.fake.addUser(TEAM, person("U0CPOSTNEW"));
      const status0 = await t.inject({ method: "GET", url: "/dashboard/api/members/sync", headers: { cookie: admin } });
      expect(status0.json()).toMatchObject({ state: "idle" });
      const first = await post(admin);
      expect(first.statusCode).toBe(202);
      expect(first.json()).toEqual({ status: "queued" });
      const [second, third] = await Promise.all([post(admin), post(admin)]);
      expect([second.statusCode, third.statusCode]).toEqual([202, 202]);
      expect(second.json()).toEqual({ status: "already_queued" });
      expect(await syncJobsWaiting(TEAM)).toBe(1);
      await t.deps.queue.drain();
      expect(await memberRow(TEAM, "U0CPOSTNEW")).toMatchObject({ active: true });
      const status = await t.inject({ method: "GET", url: "/dashboard/api/members/sync", headers: { cookie: admin } });
      expect(status.statusCode).toBe(200);
      expect(status.json()).toMatchObject({ state: "idle", reason: "manual", outcome: "ok", added: 1 });
      // Idle again: a new request queues a new sync.
      expect((await post(admin)).json()).toEqual({ status: "queued" });
      await t.deps.queue.drain();
    });

    it("a sync Slack refuses ends failed with the reason, and does not stay queued", async () => {
      t.fake.fail("users.list", { error: "missing_scope" });
      expect((await post(admin)).json()).toEqual({ status: "queued" });
      await t.deps.queue.drain();
      const status = await t.inject({ method: "GET", url: "/dashboard/api/members/sync", headers: { cookie: admin } });
      expect(status.json()).toMatchObject({
        state: "idle",
        outcome: "failed",
        error: "Slack refused the member list: missing_scope",
      });
    });

    it("answers malformed JSON with 400, never a 500", async () => {
      const res = await t.inject({
        method: "POST",
        url: "/dashboard/api/members/sync",
        headers: { cookie: admin, "content-type": "application/json" },
        payload: "{",
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    });
  });
});
