import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import { signToken } from "../../lib/signed-token.ts";
import { INSTALL_PER_MINUTE } from "./install.routes.ts";
import { BOT_SCOPES } from "./install.service.ts";

describe("install through OAuth", async () => {
  const t = await useTestApp();

  async function startInstall(): Promise<URL> {
    const res = await t.inject({ method: "GET", url: "/install" });
    expect(res.statusCode).toBe(302);
    return new URL(String(res.headers.location));
  }

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
    const url = await startInstall();
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
    const state = (await startInstall()).searchParams.get("state")!;
    const cb = await t.inject({ method: "GET", url: `/oauth/callback?code=code-1&state=${state}` });
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
    expect(me.json()).toEqual({ user_id: "U0INSTALL", team_id: "T0ACME", team_name: "Acme Rockets", role: "admin" });
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
    const state = (await startInstall()).searchParams.get("state")!;
    const cb = await t.inject({ method: "GET", url: `/chat/oauth_redirect?code=code-alt&state=${state}` });
    expect(cb.statusCode).toBe(302);
  });

  const bad = async (query: string, expectText: RegExp) => {
    const res = await t.inject({ method: "GET", url: `/oauth/callback?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toMatch(expectText);
    return res;
  };

  it("a denied install is a 400 page", async () => {
    const state = (await startInstall()).searchParams.get("state")!;
    await bad(`error=access_denied&state=${state}`, /cancelled/);
  });

  it("a missing state is a 400 page", async () => {
    await bad("code=whatever", /could not be verified/);
  });

  it("a tampered state is a 400 page", async () => {
    const state = (await startInstall()).searchParams.get("state")!;
    const [body, sig] = state.split(".");
    const tampered = `${body!.slice(0, -2)}xx.${sig}`;
    await bad(`code=c&state=${tampered}`, /could not be verified/);
    const foreign = signToken(Buffer.alloc(32, 1), { iat: Math.floor(t.clock.now().getTime() / 1000) });
    await bad(`code=c&state=${foreign}`, /could not be verified/);
  });

  it("an expired state (over 10 minutes) is a 400 page", async () => {
    const state = (await startInstall()).searchParams.get("state")!;
    t.clock.advance(10 * 60_000 + 5_000);
    await bad(`code=c&state=${state}`, /expired/);
  });

  it("a reused state is a 400 page", async () => {
    t.fake.addTeam({ id: "T0TWICE", name: "Twice", botToken: "xoxb-T0TWICE-secret-token", botUserId: "UT0TWICEBOT" });
    grant("code-twice", "T0TWICE", "U0TW");
    const state = (await startInstall()).searchParams.get("state")!;
    expect((await t.inject({ method: "GET", url: `/oauth/callback?code=code-twice&state=${state}` })).statusCode).toBe(
      302,
    );
    await bad(`code=code-twice&state=${state}`, /already used/);
  });

  it("a code Slack refuses is a 400 page, and query values are escaped", async () => {
    const state = (await startInstall()).searchParams.get("state")!;
    const res = await bad(`code=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=${state}`, /did not accept/);
    expect(res.body).not.toContain("<script>alert");
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
