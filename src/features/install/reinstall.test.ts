import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { addHoliday, createSchedule, seedRun, setWorkspaceTimezone } from "../../../test/support/factories.ts";
import { installThroughOAuth } from "../../../test/support/oauth.ts";
import { findInstallation } from "../../chat/installations.repo.ts";
import { rows } from "../../db/client.ts";
import { issueLoginToken } from "../session/index.ts";
import { tick } from "../standups/index.ts";

/** Everything an installed workspace can be reached by from outside Slack, made through the real routes. */
interface Workspace {
  teamId: string;
  installer: string;
  member: string;
  adminCookie: string;
  memberCookie: string;
  mcpKey: string;
  feedToken: string;
}

/** Over either transport: Slack sends app_uninstalled and tokens_revoked as Events API deliveries on both. */
describe.each(["http", "socket"] as const)("uninstall and reinstall (events over %s)", async (transport) => {
  const t = await useTestApp({ transport });
  let seq = 0;
  // Each request from its own address: the per-address limits of /install, OAuth, sign-in and the feed stay out of it.
  const ip = () => `10.77.${++seq >> 8}.${seq & 255}`;

  async function oauth(teamId: string, installer: string): Promise<string> {
    const cb = await installThroughOAuth(
      t,
      { code: `code-${++seq}`, teamId, installer, botToken: `xoxb-${teamId}-secret-token`, botUserId: `U${teamId}BOT` },
      { remoteAddress: ip },
    );
    expect(cb.statusCode).toBe(302);
    return String(cb.headers.location);
  }
  const signInAt = (path: string) => t.inject({ method: "GET", url: path, remoteAddress: ip() });
  async function cookieFrom(path: string): Promise<string> {
    const res = await signInAt(path);
    expect(res.statusCode).toBe(302);
    return String([res.headers["set-cookie"]].flat()[0]).split(";")[0]!;
  }
  const me = async (cookie: string) =>
    (await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } })).statusCode;
  const feed = async (token: string) =>
    (await t.inject({ method: "GET", url: `/feed/${token}`, remoteAddress: ip() })).statusCode;
  const mcp = async (key: string) =>
    (
      await t.inject({
        method: "POST",
        url: "/mcp",
        headers: { authorization: `Bearer ${key}`, accept: "application/json, text/event-stream" },
        payload: { jsonrpc: "2.0", id: 1, method: "ping" },
      })
    ).statusCode;
  const api = (method: "GET" | "POST" | "DELETE", url: string, cookie: string) =>
    t.inject({
      method,
      url: `/dashboard/api${url}`,
      headers: { cookie },
      ...(method === "GET" ? {} : { payload: {} }),
    });

  async function installed(teamId: string): Promise<Workspace> {
    const installer = `U${teamId}ADM`;
    const member = `U${teamId}MEM`;
    t.fake.addTeam({ id: teamId, name: `Team ${teamId}`, botToken: `xoxb-${teamId}-secret-token`, botUserId: "UB" });
    t.fake.addUser(teamId, { id: installer, name: "ada", real_name: "Ada Admin" });
    t.fake.addUser(teamId, { id: member, name: "max", real_name: "Max Member" });
    const adminCookie = await cookieFrom(await oauth(teamId, installer));
    await t.deps.queue.drain();
    const memberCookie = await t.signIn(teamId, member);

    const oldKey = (await api("POST", "/mcp/keys", adminCookie)).json() as { id: number };
    expect((await api("DELETE", `/mcp/keys/${oldKey.id}`, adminCookie)).statusCode).toBe(200);
    const mcpKey = ((await api("POST", "/mcp/keys", adminCookie)).json() as { key: string }).key;
    const feedToken = ((await api("POST", "/feed-token", adminCookie)).json() as { token: string }).token;

    const active = await createSchedule(t.deps.db, t.clock, { teamId, channelId: `C${teamId}A`, time: "09:00" });
    await createSchedule(t.deps.db, t.clock, {
      teamId,
      channelId: `C${teamId}P`,
      time: "10:00",
      active: false,
    });
    await seedRun(t.deps.db, {
      teamId,
      scheduleId: active,
      date: "2026-02-27",
      asked: [installer, member],
      answers: { [member]: { answers: ["shipped", "testing", "none"] } },
    });
    await addHoliday(t.deps.db, teamId, "2026-12-25", "Christmas");
    await setWorkspaceTimezone(t.deps.db, teamId, "Europe/Berlin");

    const ws = { teamId, installer, member, adminCookie, memberCookie, mcpKey, feedToken };
    expect(await reach(ws)).toEqual([200, 200, 200, 200]);
    return ws;
  }

  /** The admin's and the member's sessions, the MCP key and the feed link: each one's status code. */
  const reach = async (ws: Workspace) => [
    await me(ws.adminCookie),
    await me(ws.memberCookie),
    await mcp(ws.mcpKey),
    await feed(ws.feedToken),
  ];

  async function uninstall(teamId: string, event: Record<string, unknown> = { type: "app_uninstalled" }) {
    expect((await t.deliver.event(teamId, event)).acknowledged).toBe(true);
    await vi.waitFor(async () =>
      expect((await findInstallation(t.deps.db, teamId))?.uninstalledAt).toBeInstanceOf(Date),
    );
  }

  /** What the workspace keeps: counts of its data, and each standup's active flag. */
  const data = async (teamId: string) =>
    rows(
      t.deps.db,
      sql`select (select count(*)::int from members where team_id = ${teamId}) as members,
                 (select json_agg(active order by id) from schedules where team_id = ${teamId} and deleted_at is null) as active,
                 (select count(*)::int from standup_runs where team_id = ${teamId}) as runs,
                 (select count(*)::int from responses where team_id = ${teamId}) as responses,
                 (select count(*)::int from holidays where team_id = ${teamId}) as holidays,
                 (select timezone from workspace_calendars where team_id = ${teamId}) as timezone`,
    );
  const access = async (teamId: string) =>
    (
      await rows<{ sessions: number; live_keys: number; revoked_keys: number; feed_tokens: number }>(
        t.deps.db,
        sql`select (select count(*)::int from sessions where team_id = ${teamId}) as sessions,
                   (select count(*)::int from mcp_keys where team_id = ${teamId} and revoked_at is null) as live_keys,
                   (select count(*)::int from mcp_keys where team_id = ${teamId} and revoked_at is not null) as revoked_keys,
                   (select count(*)::int from feed_tokens where team_id = ${teamId}) as feed_tokens`,
      )
    )[0];

  it("app_uninstalled ends sessions, MCP keys, the feed token and unused sign-in links at once, and keeps the data", async () => {
    t.clock.set("2026-03-02T14:00:00Z");
    const ws = await installed("T0UNI");
    const revokedBefore = await rows<{ revoked_at: Date }>(
      t.deps.db,
      sql`select revoked_at from mcp_keys where team_id = 'T0UNI' and revoked_at is not null`,
    );
    const unusedLink = `/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, ws.teamId, ws.member))}`;
    const kept = await data(ws.teamId);
    expect(kept[0]).toMatchObject({ members: 2, active: expect.arrayContaining([true, false]), runs: 1, responses: 1 });

    t.clock.advance(60_000);
    await uninstall(ws.teamId);

    expect(await access(ws.teamId)).toEqual({ sessions: 0, live_keys: 0, revoked_keys: 2, feed_tokens: 0 });
    // A key revoked before keeps its own revocation time.
    const revokedAfter = await rows<{ revoked_at: Date }>(
      t.deps.db,
      sql`select revoked_at from mcp_keys where team_id = 'T0UNI' order by id`,
    );
    expect(new Date(revokedAfter[0]!.revoked_at).getTime()).toBe(new Date(revokedBefore[0]!.revoked_at).getTime());
    expect(new Date(revokedAfter[1]!.revoked_at).getTime()).toBe(t.clock.now().getTime());

    expect(await reach(ws)).toEqual([401, 401, 401, 404]);
    const link = await signInAt(unusedLink);
    expect(link.statusCode).toBe(403);
    expect(link.headers["content-type"]).toContain("text/html");
    expect(link.body).toContain("not installed");
    expect(link.headers["set-cookie"]).toBeUndefined();
    expect((await access(ws.teamId))!.sessions).toBe(0);

    expect(await data(ws.teamId)).toEqual(kept);
  });

  it("tokens_revoked for the bot token ends access the same way", async () => {
    t.clock.set("2026-03-02T15:00:00Z");
    const ws = await installed("T0REV");
    await uninstall(ws.teamId, { type: "tokens_revoked", tokens: { bot: ["UB"] } });
    expect(await access(ws.teamId)).toEqual({ sessions: 0, live_keys: 0, revoked_keys: 2, feed_tokens: 0 });
    expect([await me(ws.adminCookie), await mcp(ws.mcpKey), await feed(ws.feedToken)]).toEqual([401, 401, 404]);
  });

  it("reinstalling signs the installer in; members sign in again from Slack; keys and the feed link are made anew", async () => {
    t.clock.set("2026-03-02T16:00:00Z");
    const ws = await installed("T0BACK");
    const kept = await data(ws.teamId);
    await uninstall(ws.teamId);
    t.clock.advance(3 * 24 * 3600_000);

    const admin = await cookieFrom(await oauth(ws.teamId, ws.installer));
    const who = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie: admin } });
    expect(who.json()).toMatchObject({ user_id: ws.installer, role: "admin" });
    expect(await data(ws.teamId)).toEqual(kept);

    // Nothing from before comes back.
    expect(await reach(ws)).toEqual([401, 401, 401, 404]);
    const keys = (await api("GET", "/mcp/keys", admin)).json() as { active: boolean }[];
    expect(keys.map((k) => k.active)).toEqual([false, false]);

    // The member gets a fresh link from /upbeat, as any sign-in.
    const help = (await t.deliver.command(ws.teamId, ws.member, "")).body!;
    const button = new URL(JSON.stringify(help.blocks).match(/"url":"([^"]+)"/)![1]!);
    expect(await me(await cookieFrom(button.pathname + button.search))).toBe(200);

    // An admin makes a key and a feed link again; the new ones work.
    const key = ((await api("POST", "/mcp/keys", admin)).json() as { key: string }).key;
    const token = ((await api("POST", "/feed-token", admin)).json() as { token: string }).token;
    expect([await mcp(key), await feed(token)]).toEqual([200, 200]);
  });

  it("a sign-in link issued before the uninstall does not open the reinstalled workspace", async () => {
    t.clock.set("2026-03-02T17:00:00Z");
    const ws = await installed("T0LINK");
    const before = `/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, ws.teamId, ws.member))}`;
    t.clock.advance(10_000);
    await uninstall(ws.teamId);
    t.clock.advance(50_000);
    const installerLink = await oauth(ws.teamId, ws.installer);
    t.clock.advance(30_000);

    // Still inside its 5 minutes, never used, signed correctly: refused all the same.
    const old = await signInAt(before);
    expect(old.statusCode).toBe(410);
    expect(old.body).toContain("before Upbeat was removed");
    expect(old.headers["set-cookie"]).toBeUndefined();
    expect(await me(await cookieFrom(installerLink))).toBe(200);
    const fresh = `/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, ws.teamId, ws.member))}`;
    expect(await me(await cookieFrom(fresh))).toBe(200);
  });

  it("re-authorising while installed (a new scope) keeps sessions, keys, the feed link and the standups' timing", async () => {
    t.clock.set("2026-03-02T18:00:00Z");
    const ws = await installed("T0AUTH");
    const timing = () =>
      rows(t.deps.db, sql`select id, timing_changed_at from schedules where team_id = ${ws.teamId} order by id`);
    const before = await timing();
    t.clock.advance(3600_000);
    const link = await oauth(ws.teamId, ws.installer);
    expect(await findInstallation(t.deps.db, ws.teamId)).toMatchObject({ uninstalledAt: null });
    expect(await reach(ws)).toEqual([200, 200, 200, 200]);
    expect(await access(ws.teamId)).toEqual({ sessions: 2, live_keys: 1, revoked_keys: 1, feed_tokens: 1 });
    expect(await me(await cookieFrom(link))).toBe(200);
    expect(await timing()).toEqual(before);
  });

  it("standups uninstalled for 3 days resume at their next time: nothing missed is caught up", async () => {
    t.clock.set("2026-03-09T14:00:00Z"); // Monday
    const teamId = "T0SLEEP";
    t.fake.addTeam({ id: teamId, name: "Sleepy", botToken: `xoxb-${teamId}-secret-token`, botUserId: "UB" });
    await oauth(teamId, "U0SLEEPADM");
    const days = "mon,tue,wed,thu,fri,sat,sun";
    const nine = await createSchedule(t.deps.db, t.clock, { teamId, channelId: "C0NINE", time: "09:00", days });
    const eleven = await createSchedule(t.deps.db, t.clock, { teamId, channelId: "C0ELEVEN", time: "11:00", days });
    const runsOf = (id: string) =>
      rows<{ local_date: string; status: string }>(
        t.deps.db,
        sql`select local_date::text as local_date, status from standup_runs where schedule_id = ${id} order by local_date`,
      );
    const tickAt = async (at: string) => {
      t.clock.set(at);
      await tick(t.deps);
    };

    await uninstall(teamId);
    for (const at of ["2026-03-10T09:00:10Z", "2026-03-11T09:00:10Z", "2026-03-11T11:00:10Z"]) await tickAt(at);
    t.clock.set("2026-03-12T10:00:00Z"); // Thursday, an hour after the 09:00 standup would have started
    await oauth(teamId, "U0SLEEPADM");

    // Within the 3-hour catch-up window, yet missed while uninstalled: not run, not even recorded as skipped.
    await tickAt("2026-03-12T10:00:10Z");
    expect(await runsOf(nine)).toEqual([]);
    // The next due times run, once each.
    for (const at of ["2026-03-12T11:00:10Z", "2026-03-12T11:00:40Z", "2026-03-13T09:00:10Z", "2026-03-13T09:00:40Z"])
      await tickAt(at);
    expect(await runsOf(eleven)).toEqual([{ local_date: "2026-03-12", status: "closed" }]);
    expect(await runsOf(nine)).toEqual([{ local_date: "2026-03-13", status: "open" }]);
  });
});
