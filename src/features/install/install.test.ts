import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { finishOAuth, type OAuthStart, startOAuth } from "../../../test/support/oauth.ts";
import { rows } from "../../db/client.ts";
import { signToken } from "../../lib/signed-token.ts";
import { INSTALL_PER_MINUTE } from "./install.routes.ts";
import { BOT_SCOPES } from "./install.service.ts";

describe("install through OAuth", async () => {
  const t = await useTestApp();

  const startInstall = () => startOAuth(t);

  function grant(code: string, teamId: string, installer: string) {
    t.fake.setOAuthCode(code, {
      team: { id: teamId, name: "Acme Rockets" },
      botToken: `xoxb-${teamId}-secret-token`,
      botUserId: `U${teamId}BOT`,
      scope: BOT_SCOPES.join(","),
      authedUserId: installer,
      clientId: "test-client-id",
      clientSecret: "test-client-secret",
    });
  }

  it("/install redirects to the OAuth page with client id, every bot scope, redirect URI and a signed state", async () => {
    const { location: url } = await startInstall();
    expect(url.origin + url.pathname).toBe("http://127.0.0.1:9/oauth/v2/authorize");
    expect(url.searchParams.get("client_id")).toBe("test-client-id");
    const scopes = url.searchParams.get("scope")!.split(",");
    // The one list: exactly what the manifest declares (and what the code's calls need: see slack-app.test.ts).
    const manifest = (await t.inject({ method: "GET", url: "/chat/manifest" })).json();
    expect(scopes).toEqual(manifest.oauth_config.scopes.bot);
    expect(scopes).toEqual(expect.arrayContaining(["chat:write", "commands", "im:write", "im:history", "users:read"]));
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:3000/oauth/callback");
    expect(url.searchParams.get("state")).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it("the full flow stores the installation with an encrypted token, makes the installer admin, syncs members and signs in", async () => {
    t.fake.addTeam({
      id: "T0ACME",
      name: "Acme Rockets",
      botToken: "xoxb-T0ACME-secret-token",
      botUserId: "UT0ACMEBOT",
    });
    t.fake.addUser("T0ACME", {
      id: "U0INSTALL",
      name: "ina",
      real_name: "Ina Staller",
      email: "ina@acme.test",
      tz: "Europe/Berlin",
    });
    t.fake.addUser("T0ACME", { id: "U0BOB", name: "bob", real_name: "Bob Builder", tz: "America/New_York" });
    grant("code-1", "T0ACME", "U0INSTALL");
    const cb = await finishOAuth(t, await startInstall(), "code=code-1");
    expect(cb.statusCode).toBe(302);
    const location = String(cb.headers.location);
    expect(location).toMatch(/^\/dashboard\?t=/);

    const [inst] = await rows<{
      bot_token_enc: string;
      team_name: string;
      installer_user_id: string;
      uninstalled_at: null;
    }>(t.deps.db, sql`select * from installations where team_id = 'T0ACME'`);
    expect(inst!.team_name).toBe("Acme Rockets");
    expect(inst!.installer_user_id).toBe("U0INSTALL");
    expect(inst!.bot_token_enc).not.toContain("xoxb");
    expect(inst!.bot_token_enc).toMatch(/^v1\./);

    await t.deps.queue.drain();
    const login = await t.inject({ method: "GET", url: location });
    expect(login.statusCode).toBe(302);
    const cookie = String([login.headers["set-cookie"]].flat()[0]).split(";")[0]!;
    const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } });
    expect(me.json()).toEqual({
      user_id: "U0INSTALL",
      team_id: "T0ACME",
      team_name: "Acme Rockets",
      role: "admin",
      ai_summaries_available: false,
    });
    const members = (await t.inject({ method: "GET", url: "/dashboard/api/members", headers: { cookie } })).json();
    expect(members).toEqual(
      expect.arrayContaining([
        {
          user_id: "U0INSTALL",
          real_name: "Ina Staller",
          email: "ina@acme.test",
          tz: "Europe/Berlin",
          active: true,
          role: "admin",
        },
        expect.objectContaining({ user_id: "U0BOB", role: "member", active: true }),
      ]),
    );
  });

  it("is also served at /chat/oauth_redirect", async () => {
    t.fake.addTeam({ id: "T0ALT", name: "Alt", botToken: "xoxb-T0ALT-secret-token", botUserId: "UT0ALTBOT" });
    grant("code-alt", "T0ALT", "U0ALT");
    const cb = await finishOAuth(t, await startInstall(), "code=code-alt", { path: "/chat/oauth_redirect" });
    expect(cb.statusCode).toBe(302);
  });

  /** The callback from a browser that holds `start`'s cookie (none when there is no start). */
  const bad = async (query: string, expectText: RegExp, start?: OAuthStart) => {
    const res = await t.inject({
      method: "GET",
      url: `/oauth/callback?${query}`,
      headers: start ? { cookie: start.cookie } : {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toMatch(expectText);
    return res;
  };

  it("a denied install is a 400 page", async () => {
    const start = await startInstall();
    await bad(`error=access_denied&state=${start.state}`, /cancelled/, start);
  });

  it("a missing state is a 400 page", async () => {
    await bad("code=whatever", /could not be verified/);
  });

  it("a tampered state is a 400 page", async () => {
    const start = await startInstall();
    const [body, sig] = start.state.split(".");
    const tampered = `${body!.slice(0, -2)}xx.${sig}`;
    await bad(`code=c&state=${tampered}`, /could not be verified/, start);
    const foreign = signToken(Buffer.alloc(32, 1), { iat: Math.floor(t.clock.now().getTime() / 1000) });
    await bad(`code=c&state=${foreign}`, /could not be verified/, start);
  });

  it("an expired state (over 10 minutes) is a 400 page", async () => {
    const start = await startInstall();
    t.clock.advance(10 * 60_000 + 5_000);
    await bad(`code=c&state=${start.state}`, /expired/, start);
  });

  it("a reused state is a 400 page", async () => {
    t.fake.addTeam({ id: "T0TWICE", name: "Twice", botToken: "xoxb-T0TWICE-secret-token", botUserId: "UT0TWICEBOT" });
    grant("code-twice", "T0TWICE", "U0TW");
    const start = await startInstall();
    expect((await finishOAuth(t, start, "code=code-twice")).statusCode).toBe(302);
    await bad(`code=code-twice&state=${start.state}`, /already used/, start);
  });

  it("a code Slack refuses is a 400 page, and query values are escaped", async () => {
    const start = await startInstall();
    const res = await bad(`code=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=${start.state}`, /did not accept/, start);
    expect(res.body).not.toContain("<script>alert");
  });

  it("/install sets the browser cookie the state is bound to: HttpOnly, Lax, 10 minutes, only the callback paths", async () => {
    const start = await startInstall();
    const lines = [start.response.headers["set-cookie"] ?? []].flat();
    expect(lines).toHaveLength(2);
    const paths = lines.map((line) => /Path=([^;]+)/.exec(line)?.[1]).sort();
    expect(paths).toEqual(["/chat/oauth_redirect", "/oauth/callback"]);
    for (const line of lines) {
      expect(line.startsWith(`${start.cookie};`), line).toBe(true);
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).toMatch(/; Max-Age=600/);
      // APP_URL is http here: a Secure cookie would never come back.
      expect(line).not.toMatch(/Secure/);
    }
    const key = start.cookie.split("=")[1]!;
    expect(key.length).toBeGreaterThanOrEqual(40);
    // The state carries a hash of the key, never the key itself.
    expect(Buffer.from(start.state.split(".")[0]!, "base64url").toString()).not.toContain(key);
  });

  it("a callback link opened in another browser installs nothing and says to start again; the starter's still works", async () => {
    t.fake.addTeam({ id: "T0EVIL", name: "Evil", botToken: "xoxb-T0EVIL-secret-token", botUserId: "UT0EVILBOT" });
    grant("code-evil", "T0EVIL", "U0EVIL");
    // The attacker starts an install and approves it; the callback link is what they send to a victim.
    const attacker = await startInstall();
    const victimOwn = await startInstall();
    const accessCalls = t.fake.callsTo("oauth.v2.access").length;
    const otherBrowsers: OAuthStart[] = [
      { ...attacker, cookie: "" },
      { ...attacker, cookie: victimOwn.cookie },
      { ...attacker, cookie: `${attacker.cookie}x` },
    ];
    for (const victim of otherBrowsers) {
      const res = await finishOAuth(t, victim, "code=code-evil");
      expect(res.statusCode, victim.cookie).toBe(400);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.body).toMatch(/started in another browser/);
      expect(res.body).toContain('<a href="/install">');
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
    expect(t.fake.callsTo("oauth.v2.access")).toHaveLength(accessCalls);
    const [written] = await rows<{ installs: number; nonces: number }>(
      t.deps.db,
      sql`select (select count(*)::int from installations where team_id = 'T0EVIL') as installs,
                 (select count(*)::int from used_nonces where kind = 'oauth') as nonces`,
    );
    expect(written!.installs).toBe(0);
    // Not spent either: the browser that started it can still finish, and the cookie is then cleared.
    const nonces = written!.nonces;
    const own = await finishOAuth(t, attacker, "code=code-evil");
    expect(own.statusCode).toBe(302);
    const cleared = [own.headers["set-cookie"] ?? []].flat();
    expect(cleared).toHaveLength(2);
    for (const line of cleared) expect(line).toMatch(/^upbeat_install=;.*Max-Age=0/);
    const [after] = await rows<{ nonces: number }>(
      t.deps.db,
      sql`select count(*)::int as nonces from used_nonces where kind = 'oauth'`,
    );
    expect(after!.nonces).toBe(nonces + 1);
  });

  it("/install and the OAuth callback allow 30 a minute per IP each, then a 429 page with Retry-After", async () => {
    t.clock.set("2026-03-05T10:00:30Z");
    const from = (ip: string, url: string) => t.inject({ method: "GET", url, remoteAddress: ip });
    for (let i = 0; i < INSTALL_PER_MINUTE; i++) expect((await from("10.9.9.9", "/install")).statusCode).toBe(302);
    const over = await from("10.9.9.9", "/install");
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toBe("30");
    expect(over.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(over.body).toContain("Too many install attempts");
    expect((await from("10.9.9.10", "/install")).statusCode).toBe(302);

    // The callback counts apart (one install is one of each), at both of its paths together.
    for (let i = 0; i < INSTALL_PER_MINUTE; i++) {
      const path = i % 2 ? "/oauth/callback" : "/chat/oauth_redirect";
      expect((await from("10.9.9.9", `${path}?code=c`)).statusCode).toBe(400);
    }
    const callback = await from("10.9.9.9", "/oauth/callback?code=c");
    expect(callback.statusCode).toBe(429);
    expect(callback.headers["retry-after"]).toBe("30");
    expect(callback.headers["content-type"]).toBe("text/html; charset=utf-8");

    t.clock.set("2026-03-05T10:01:00Z");
    expect((await from("10.9.9.9", "/install")).statusCode).toBe(302);
  });
});

describe("install through OAuth at an https address", async () => {
  const t = await useTestApp({ env: { APP_URL: "https://upbeat.example.test" } });

  it("marks the browser cookie Secure", async () => {
    const lines = [(await startOAuth(t)).response.headers["set-cookie"] ?? []].flat();
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/; Secure/);
  });
});
