import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { emailClaims, useFakeEmail } from "../../../test/support/email.ts";
import { installThroughOAuth } from "../../../test/support/oauth.ts";
import { findInstallation } from "../../chat/installations.repo.ts";
import { makeWebClient } from "../../chat/web-client.ts";
import { rows } from "../../db/client.ts";
import { issueLoginToken } from "../session/index.ts";
import { tokenCheckTick } from "./token-check.ts";

type JobRow = { name: string; state: string; retry_count: number };
const jobsOf = (t: TestApp, name: string, teamId: string) =>
  rows<JobRow>(
    t.deps.db,
    sql`select name, state::text as state, retry_count from pgboss.job
        where name = ${name} and data->>'teamId' = ${teamId} order by created_on`,
  );

/** Issue 22, item 2: a token Slack no longer accepts marks the installation as needing reinstall. */
describe("a token Slack refused", async () => {
  const { fake: mail, env } = await useFakeEmail();
  const t = await useTestApp({ env });
  let seq = 0;
  const ip = () => `10.66.${++seq >> 8}.${seq & 255}`;
  const token = (teamId: string) => `xoxb-${teamId.toLowerCase()}-token`;

  /** A workspace with an installer admin, a second admin and a member, each with an address; an MCP key and feed. */
  async function workspace(teamId: string) {
    const admin = `U${teamId.slice(1)}ADMIN`;
    await t.installTeam(teamId, { name: `Team ${teamId}` });
    await t.addMember(teamId, admin, { email: `${admin.toLowerCase()}@example.com` });
    await t.addMember(teamId, `U${teamId.slice(1)}BOSS`);
    await t.addMember(teamId, `U${teamId.slice(1)}MEM`);
    await t.deps.db.execute(
      sql`update members set role = 'admin' where team_id = ${teamId} and user_id in (${admin}, ${`U${teamId.slice(1)}BOSS`})`,
    );
    const cookie = await t.signIn(teamId, admin);
    const api = (url: string) =>
      t.inject({ method: "POST", url: `/dashboard/api${url}`, headers: { cookie }, payload: {} });
    const mcpKey = ((await api("/mcp/keys")).json() as { key: string }).key;
    const feedToken = ((await api("/feed-token")).json() as { token: string }).token;
    return { teamId, admin, cookie, mcpKey, feedToken };
  }
  const reach = async (ws: Awaited<ReturnType<typeof workspace>>) => [
    (await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie: ws.cookie } })).statusCode,
    (
      await t.inject({
        method: "POST",
        url: "/mcp",
        headers: { authorization: `Bearer ${ws.mcpKey}`, accept: "application/json, text/event-stream" },
        payload: { jsonrpc: "2.0", id: 1, method: "ping" },
      })
    ).statusCode,
    (await t.inject({ method: "GET", url: `/feed/${ws.feedToken}`, remoteAddress: ip() })).statusCode,
  ];
  const react = (teamId: string, n: number) => ({
    teamId,
    key: `react:${teamId}:${n}`,
    channelId: "C0TOK",
    ts: `1.${n}`,
  });

  it("a job that meets token_revoked marks the installation and is not retried; the workspace's other jobs end without calling Slack", async () => {
    t.clock.set("2026-03-02T10:00:00Z");
    const ws = await workspace("T0TOKA");
    const other = await workspace("T0TOKB");
    t.fake.addChannel("T0TOKB", { id: "C0TOK", name: "tok", members: ["B0TOKBBOT"] });
    await t.deps.queue.enqueue("kudos.react", react("T0TOKA", 1));
    // Queued already, due a little later.
    await t.deps.queue.enqueue("kudos.react", react("T0TOKA", 2), { startAfter: 60 });
    await t.deps.queue.enqueue("kudos.react", react("T0TOKA", 3), { startAfter: 60 });
    t.fake.revokeToken(token("T0TOKA"));
    await t.deps.queue.drain();

    expect(t.fake.callsTo("reactions.add").map((c) => c.error)).toEqual(["token_revoked"]);
    const marked = await findInstallation(t.deps.db, "T0TOKA");
    expect(marked).toMatchObject({ tokenRefusedError: "token_revoked", tokenRefusedAt: t.clock.now() });
    expect(marked?.uninstalledAt).toEqual(t.clock.now());

    await t.deps.db.execute(
      sql`update pgboss.job set start_after = now() where name = 'kudos.react' and state = 'created'`,
    );
    await t.deps.queue.drain();
    expect(t.fake.callsTo("reactions.add")).toHaveLength(1);
    expect(await jobsOf(t, "kudos.react", "T0TOKA")).toEqual(
      Array.from({ length: 3 }, () => ({ name: "kudos.react", state: "completed", retry_count: 0 })),
    );
    // The uninstall rule: sessions, MCP keys and the feed refused; another workspace untouched.
    expect(await reach(ws)).toEqual([401, 401, 404]);
    expect(await reach(other)).toEqual([200, 200, 200]);
    expect((await findInstallation(t.deps.db, "T0TOKB"))?.tokenRefusedAt).toBeNull();
  });

  it("each admin gets one e-mail per mark, however many calls meet the refused token", async () => {
    t.clock.set("2026-03-02T11:00:00Z");
    mail.reset();
    const ws = await workspace("T0TOKM");
    t.fake.revokeToken(token("T0TOKM"));
    // A listener's call and jobs' calls, all refused.
    for (let n = 1; n <= 3; n++) await t.deps.queue.enqueue("kudos.react", react("T0TOKM", n));
    const res = await t.sendEvent("T0TOKM", { type: "app_home_opened", user: ws.admin, tab: "home" });
    expect(res.statusCode).toBe(200);
    await t.app.settle();
    await t.deps.queue.drain();
    await t.deps.queue.drain();

    const claims = (await emailClaims(t.deps.db, "T0TOKM")).filter((c) => c.kind === "reinstall");
    expect(claims.map((c) => [c.user_id, c.state])).toEqual([
      ["U0TOKMADMIN", "sent"],
      ["U0TOKMBOSS", "sent"],
    ]);
    const sent = mail.emails.filter((e) => e.subject.includes("reinstall"));
    expect(sent.map((e) => e.to).sort()).toEqual([["u0tokmadmin@example.com"], ["u0tokmboss@example.com"]]);
    expect(sent[0]!.text).toContain("Slack no longer accepts Upbeat's token for Team T0TOKM: reinstall it.");
  });

  it("the sign-in page says Slack no longer accepts the token and to reinstall", async () => {
    t.clock.set("2026-03-02T12:00:00Z");
    const ws = await workspace("T0TOKS");
    const link = `/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, ws.teamId, ws.admin))}`;
    t.fake.revokeToken(token("T0TOKS"));
    await t.deps.queue.enqueue("kudos.react", react("T0TOKS", 1));
    await t.deps.queue.drain();
    const page = await t.inject({ method: "GET", url: link, remoteAddress: ip() });
    expect(page.statusCode).toBe(403);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("Slack no longer accepts Upbeat&#39;s token for Team T0TOKS: reinstall it.");
    expect(page.body).toContain('href="/install"');
    expect(page.headers["set-cookie"]).toBeUndefined();
  });

  it("the daily auth.test marks a silently revoked workspace, leaves healthy ones, and is queued once a day", async () => {
    t.clock.set("2026-03-03T03:30:00Z");
    await workspace("T0TOKD");
    await workspace("T0TOKH");
    t.fake.reset();
    t.fake.revokeToken(token("T0TOKD"));
    expect(await tokenCheckTick(t.deps)).toBe(false); // before 04:00 UTC
    t.clock.set("2026-03-03T04:00:30Z");
    expect(await tokenCheckTick(t.deps)).toBe(true);
    // Another instance's tick (the same database) the same day finds it claimed.
    expect(await tokenCheckTick(t.deps)).toBe(false);
    await t.deps.queue.drain();

    const checked = t.fake.callsTo("auth.test");
    // Every installed workspace once: these two, and T0TOKB of the first test.
    expect(checked.map((c) => c.teamId).sort()).toEqual(["T0TOKB", "T0TOKD", "T0TOKH"]);
    expect((await findInstallation(t.deps.db, "T0TOKD"))?.tokenRefusedError).toBe("token_revoked");
    expect(await findInstallation(t.deps.db, "T0TOKH")).toMatchObject({ tokenRefusedAt: null, uninstalledAt: null });
    // Workspaces marked before (T0TOKA, T0TOKM, T0TOKS) are not checked: they are no longer installed.
    expect(checked.some((c) => c.teamId === "T0TOKA")).toBe(false);
    expect((await jobsOf(t, "install.token-check", "T0TOKD")).map((j) => j.retry_count)).toEqual([0]);
  });

  it("a reinstall through OAuth clears the mark, and the workspace's events are handled again at once", async () => {
    t.clock.set("2026-03-03T09:00:00Z");
    const teamId = "T0TOKR";
    const installer = "U0TOKRINST";
    t.fake.addTeam({ id: teamId, name: `Team ${teamId}`, botToken: `xoxb-${teamId}-old`, botUserId: "UB" });
    t.fake.addUser(teamId, { id: installer, name: "ina", real_name: "Ina" });
    const oauth = async (botToken: string) => {
      const cb = await installThroughOAuth(
        t,
        { code: `code-${++seq}`, teamId, installer, botToken, botUserId: "UB" },
        { remoteAddress: ip },
      );
      expect(cb.statusCode).toBe(302);
    };
    await oauth(`xoxb-${teamId}-old`);
    await t.deps.queue.drain();
    // An event read the installation: the authorize cache now holds it.
    const home = () => t.sendEvent(teamId, { type: "app_home_opened", user: installer, tab: "home" });
    await home();
    await t.app.settle();
    t.fake.revokeToken(`xoxb-${teamId}-old`);
    await home();
    await t.app.settle();
    expect((await findInstallation(t.deps.db, teamId))?.tokenRefusedError).toBe("token_revoked");

    t.fake.addTeam({ id: teamId, name: `Team ${teamId}`, botToken: `xoxb-${teamId}-new`, botUserId: "UB" });
    await oauth(`xoxb-${teamId}-new`);
    await t.deps.queue.drain();
    expect(await findInstallation(t.deps.db, teamId)).toMatchObject({
      uninstalledAt: null,
      tokenRefusedAt: null,
      tokenRefusedError: null,
    });
    // A call still made with the old token (a job that read it before the reinstall) is refused: the new stays.
    const stale = makeWebClient(
      t.deps.config,
      t.deps.log,
      `xoxb-${teamId}-old`,
      "read",
      undefined,
      t.deps.chat.tokenRefused,
    );
    await expect(stale.auth.test()).rejects.toThrow(/token_revoked/);
    expect((await findInstallation(t.deps.db, teamId))?.tokenRefusedAt).toBeNull();
    const before = t.fake.callsTo("views.publish").length;
    await home();
    await t.app.settle();
    const published = t.fake.callsTo("views.publish").slice(before);
    expect(published.map((c) => [c.ok, c.token])).toEqual([[true, `xoxb-${teamId}-new`]]);
  });

  it("an invalid_auth that auth.test does not confirm (a Slack hiccup) marks nothing; a confirmed one marks", async () => {
    t.clock.set("2026-03-02T10:00:00Z");
    const ws = await workspace("T0TOKH2");
    // Called directly (not from a job), so no other queued work can meet the injected refusal first.
    const react = async () => {
      const client = await t.deps.chat.forTeam("T0TOKH2", "post");
      return client.reactions.add({ channel: "C0TOK", timestamp: "1.1", name: "tada" }).catch((e: unknown) => e);
    };
    t.fake.fail("reactions.add", { error: "invalid_auth" }, 1);
    expect(await react()).toMatchObject({ data: { error: "invalid_auth" } });
    expect(t.fake.callsTo("auth.test").filter((c) => c.teamId === "T0TOKH2")).toHaveLength(1);
    expect(await findInstallation(t.deps.db, "T0TOKH2")).toMatchObject({ tokenRefusedAt: null, uninstalledAt: null });
    expect(await reach(ws)).toEqual([200, 200, 200]);
    // Refused again, and auth.test refuses too: marked.
    t.fake.fail("reactions.add", { error: "invalid_auth" }, 1);
    t.fake.fail("auth.test", { error: "invalid_auth" }, 1);
    expect(await react()).toMatchObject({ data: { error: "invalid_auth" } });
    expect(await findInstallation(t.deps.db, "T0TOKH2")).toMatchObject({ tokenRefusedError: "invalid_auth" });
  });
});
