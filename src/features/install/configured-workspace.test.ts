import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { findInstallation } from "../../chat/installations.repo.ts";
import { ConfigError } from "../../config.ts";
import { rows } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { decryptSecret } from "../../lib/crypto.ts";
import { markNeedsReinstall } from "./access.ts";
import { installConfiguredWorkspace } from "./configured-workspace.ts";
import { BOT_SCOPES } from "./install.service.ts";

const TEAM = "T0ONE";
const TOKEN = "xoxb-one-first";
/** The header's list differs from the manifest's (one extra scope), so the stored list shows where it came from. */
const GRANTED = [...BOT_SCOPES, "chat:write.public"];

/** The app's deps as a start with this CHAT_BOT_TOKEN sees them (the same database, clock and chat clients). */
const withToken = (deps: Deps, token: string): Deps => ({ ...deps, config: { ...deps.config, chatBotToken: token } });

/** What the start's ConfigError says, or "" when it did not throw one. */
async function startError(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "";
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.join("\n");
    throw err;
  }
}

describe("one workspace from CHAT_BOT_TOKEN, installed at start", async () => {
  const fake = await startFakeSlack();
  fake.addTeam({ id: TEAM, name: "One & <Only>", botToken: TOKEN, botUserId: "U0ONEBOT", scopes: GRANTED });
  fake.addUser(TEAM, { id: "U0ADMIN", name: "ada", real_name: "Ada", is_admin: true });
  fake.addUser(TEAM, { id: "U0OWNER", name: "otto", real_name: "Otto", is_owner: true });
  fake.addUser(TEAM, { id: "U0PLAIN", name: "pia", real_name: "Pia" });
  // Only the bot token: no OAuth client at all.
  const t = await useTestApp({
    fake,
    env: { CHAT_BOT_TOKEN: TOKEN, CHAT_CLIENT_ID: "", CHAT_CLIENT_SECRET: "" },
  });
  const installation = () => findInstallation(t.deps.db, TEAM);
  const tokenOf = async () => decryptSecret(t.deps.keys.tokenEncryption, (await installation())!.botTokenEnc);
  const syncState = async () =>
    (await rows<{ state: string }>(t.deps.db, sql`select state from member_syncs where team_id = ${TEAM}`))[0]?.state;

  it("the start stored the workspace: its name, bot user, the token encrypted, the scopes Slack listed, no installer", async () => {
    const row = await installation();
    expect(row).toMatchObject({
      teamName: "One & <Only>",
      botUserId: "U0ONEBOT",
      scopes: GRANTED.join(","),
      installerUserId: "",
      uninstalledAt: null,
    });
    expect(row!.botTokenEnc).not.toContain(TOKEN);
    expect(await tokenOf()).toBe(TOKEN);
    expect(fake.callsTo("auth.test")).toHaveLength(1);
    expect(fake.callsTo("team.info")).toHaveLength(1);
    expect(fake.callsTo("oauth.v2.access")).toEqual([]);
    expect(await syncState()).toBe("queued");
  });

  it("Slack's admins and owners become admins through the member sync; everyone else is a member", async () => {
    await t.deps.queue.drain();
    const members = await rows<{ user_id: string; role: string }>(
      t.deps.db,
      sql`select user_id, role from members where team_id = ${TEAM} order by user_id`,
    );
    expect(members).toEqual([
      { user_id: "U0ADMIN", role: "admin" },
      { user_id: "U0OWNER", role: "admin" },
      { user_id: "U0PLAIN", role: "member" },
    ]);
    const ada = await t.signIn(TEAM, "U0ADMIN");
    const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie: ada } });
    expect(me.json()).toMatchObject({ team_name: "One & <Only>", role: "admin" });
  });

  it("/install and the OAuth callback explain the mode in an escaped page, with no redirect and no OAuth", async () => {
    const page = await t.inject({ method: "GET", url: "/install" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers.location).toBeUndefined();
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(page.body).toContain("One &amp; &lt;Only&gt;");
    expect(page.body).not.toContain("<Only>");
    expect(page.body).toContain("nothing to install");
    for (const path of ["/oauth/callback", "/chat/oauth_redirect"]) {
      const res = await t.inject({ method: "GET", url: `${path}?code=c0de&state=s1gned` });
      expect(res.statusCode, path).toBe(400);
      expect(res.body, path).toContain("One &amp; &lt;Only&gt;");
    }
    expect(fake.callsTo("oauth.v2.access")).toEqual([]);
    const front = await t.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
    expect(front.body).toContain('href="/install"');
    expect(front.body).not.toContain("Add to Slack");
  });

  it("a second start with the same token changes nothing: no write, no sync, no second row", async () => {
    const before = await installation();
    t.clock.advance(60_000);
    expect(await installConfiguredWorkspace(t.deps)).toEqual({
      teamId: TEAM,
      teamName: "One & <Only>",
      outcome: "unchanged",
    });
    expect(await installation()).toEqual(before);
    expect(await syncState()).toBe("idle");
    expect(await t.deps.queue.drain()).toBe(0);
    const count = await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from installations`);
    expect(count[0]!.n).toBe(1);
  });

  it("a new token for the team replaces the stored one, as a re-authorisation: sessions stay", async () => {
    fake.addTeam({ id: TEAM, name: "One & <Only>", botToken: "xoxb-one-second", botUserId: "U0ONEBOT" });
    const ada = await t.signIn(TEAM, "U0ADMIN");
    t.clock.advance(60_000);
    const done = await installConfiguredWorkspace(withToken(t.deps, "xoxb-one-second"));
    expect(done?.outcome).toBe("token_replaced");
    expect(await tokenOf()).toBe("xoxb-one-second");
    const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie: ada } });
    expect(me.statusCode).toBe(200);
  });

  it("after Slack refused the token, a start with a new one reinstalls and clears the mark", async () => {
    fake.revokeToken("xoxb-one-second");
    await markNeedsReinstall(t.deps, TEAM, "token_revoked");
    expect((await installation())?.tokenRefusedAt).not.toBeNull();
    const page = await t.inject({ method: "GET", url: "/install" });
    expect(page.body).toContain("no longer accepts its bot token (token_revoked)");
    fake.addTeam({ id: TEAM, name: "One & <Only>", botToken: "xoxb-one-third", botUserId: "U0ONEBOT" });
    t.clock.advance(60_000);
    const done = await installConfiguredWorkspace(withToken(t.deps, "xoxb-one-third"));
    expect(done?.outcome).toBe("reinstalled");
    expect(await installation()).toMatchObject({ uninstalledAt: null, tokenRefusedAt: null, tokenRefusedError: null });
    expect(await tokenOf()).toBe("xoxb-one-third");
    expect((await t.inject({ method: "GET", url: "/install" })).body).not.toContain("no longer accepts");
  });

  it("a start after app_uninstalled with the same (now refused) token fails, naming CHAT_BOT_TOKEN", async () => {
    const res = await t.sendEvent(TEAM, { type: "app_uninstalled" });
    expect(res.statusCode).toBe(200);
    await t.app.settle();
    expect((await installation())?.uninstalledAt).not.toBeNull();
    fake.revokeToken("xoxb-one-third");
    const message = await startError(installConfiguredWorkspace(withToken(t.deps, "xoxb-one-third")));
    expect(message).toMatch(/^CHAT_BOT_TOKEN was refused by Slack \(token_revoked\): /);
    expect(message).not.toContain("xoxb-");
    expect((await installation())?.uninstalledAt).not.toBeNull();
  });

  it("a token Slack never issued fails the same way (invalid_auth)", async () => {
    const message = await startError(installConfiguredWorkspace(withToken(t.deps, "xoxb-never-issued")));
    expect(message).toMatch(/^CHAT_BOT_TOKEN was refused by Slack \(invalid_auth\): /);
  });
});

describe("one workspace from CHAT_BOT_TOKEN: Slack unreachable at start", async () => {
  const fake = await startFakeSlack();
  // No scopes: Slack's header lists none and team.info is refused (missing_scope), so both fall back.
  fake.addTeam({ id: "T0FLAKY", name: "Flaky", botToken: "xoxb-flaky", botUserId: "U0FLAKYBOT", scopes: [] });
  const t = await useTestApp({ fake });
  const deps = withToken(t.deps, "xoxb-flaky");
  const fast = { retryDelaysMs: [1, 1, 1] };

  it("a first start that cannot reach Slack retries, then fails clearly naming the variable; nothing is stored", async () => {
    fake.fail("auth.test", { status: 503 }, 4);
    const message = await startError(installConfiguredWorkspace(deps, fast));
    expect(message).toBe(
      "CHAT_BOT_TOKEN could not be checked: Slack's Web API (CHAT_API_URL) did not answer auth.test after 4 tries (HTTP 503)",
    );
    expect(fake.callsTo("auth.test")).toHaveLength(4);
    expect(await findInstallation(t.deps.db, "T0FLAKY")).toBeUndefined();
  });

  it("an outage that passes within the retries installs the workspace", async () => {
    fake.fail("auth.test", { drop: true }, 2);
    const done = await installConfiguredWorkspace(deps, fast);
    expect(done).toMatchObject({ teamId: "T0FLAKY", outcome: "installed" });
    // No scopes listed: the manifest's; team.info refused: auth.test's name.
    expect(await findInstallation(t.deps.db, "T0FLAKY")).toMatchObject({
      scopes: BOT_SCOPES.join(","),
      teamName: "Flaky",
    });
    expect(fake.callsTo("team.info").map((c) => c.error)).toEqual(["missing_scope"]);
  });

  it("with this token already installed, a start during an outage goes ahead on the stored installation", async () => {
    const before = await findInstallation(t.deps.db, "T0FLAKY");
    fake.fail("auth.test", { status: 500 }, 10);
    expect(await installConfiguredWorkspace(deps, fast)).toEqual({
      teamId: "T0FLAKY",
      teamName: "Flaky",
      outcome: "unchanged",
    });
    expect(await findInstallation(t.deps.db, "T0FLAKY")).toEqual(before);
  });
});
