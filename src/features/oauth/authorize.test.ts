import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { APP_URL, useTestApp } from "../../../test/support/app.ts";
import {
  authorizeUrl,
  nextAddress,
  pkce,
  registerTestClient,
  startAuthorization,
  TEST_REDIRECT,
} from "../../../test/support/mcp-oauth.ts";
import { issueLoginToken } from "../session/index.ts";

const TEAM = "T0OAZ";
const ADMIN = "U0OAZADMIN";

describe("the authorization endpoint", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN, name: "Acme" });
  const cookie = await t.signIn(TEAM, ADMIN);
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.inject({ method: "GET", url, headers, remoteAddress: nextAddress() });
  const clientId = await registerTestClient(t);
  const two = await registerTestClient(t, { redirect_uris: [TEST_REDIRECT, "https://app.example.com/cb"] });
  const { challenge } = pkce();
  const base = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: TEST_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s<1>",
  };

  it("shows a page, never a redirect, until the client and redirect URI are known", async () => {
    for (const [params, words] of [
      [{ ...base, client_id: undefined }, /no client/],
      [{ ...base, client_id: "mcpc_unknown0000000000000" }, /not registered/],
      [{ ...base, client_id: "<script>" }, /neither/],
      [{ ...base, redirect_uri: "https://evil.example.com/cb" }, /not one the client registered/],
      [{ ...base, client_id: two, redirect_uri: undefined }, /more than one/],
    ] as const) {
      const res = await get(authorizeUrl(params));
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toMatch(words);
      expect(res.body).not.toContain("<script>");
    }
  });

  it("never redirects on a problem: a bad request after a good client is a page too, escaped, in plain words", async () => {
    for (const [params, words] of [
      [{ ...base, response_type: "token" }, /response_type must be code/],
      [{ ...base, code_challenge: undefined }, /code_challenge is required/],
      [{ ...base, code_challenge_method: "plain" }, /must be S256/],
      [{ ...base, code_challenge_method: undefined }, /must be S256/],
      [{ ...base, scope: "standups:read <b>admin</b>" }, /scope may hold only/],
      [{ ...base, resource: "https://other.example.com/mcp" }, /resource must be/],
    ] as const) {
      const res = await get(authorizeUrl(params));
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toMatch(words);
      expect(res.body).toContain("Go back to your AI client");
      expect(res.body).not.toContain("<b>");
    }
  });

  it("is no open redirector: a client registered with any https URI cannot bounce a browser there", async () => {
    const evil = await registerTestClient(t, { redirect_uris: ["https://evil.example/landing"] });
    const res = await get(authorizeUrl({ client_id: evil, response_type: "token" }));
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).not.toContain("evil.example");
    // A client stored with a scheme refused since (an OS handler) is refused here as well.
    await t.deps.db.execute(
      sql`update oauth_clients set redirect_uris = ${JSON.stringify(["ms-settings:privacy"])}::jsonb where client_id = ${evil}`,
    );
    const handler = await get(authorizeUrl({ ...base, client_id: evil, redirect_uri: undefined }));
    expect(handler.statusCode).toBe(400);
    expect(handler.headers.location).toBeUndefined();
    expect(handler.body).toMatch(/ms-settings: redirect URIs are not allowed/);
  });

  it("accepts a loopback redirect on another port, the resource in any case, and defaults the scope", async () => {
    const res = await get(
      authorizeUrl({
        ...base,
        redirect_uri: "http://127.0.0.1:50123/callback",
        resource: `${APP_URL.toUpperCase().replace("HTTP://", "http://")}/mcp/`,
      }),
      { cookie },
    );
    expect(res.statusCode).toBe(302);
    const id = /request=([\w-]+)/.exec(String(res.headers.location))![1]!;
    const view = await t.inject({ method: "GET", url: `/dashboard/api/oauth/requests/${id}`, headers: { cookie } });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      request_id: id,
      client: { client_id: clientId, name: "Test AI", uri: null, kind: "dynamic", redirect_host: "127.0.0.1:50123" },
      scopes: [{ scope: "standups:read" }],
      workspace: { team_id: TEAM, name: "Acme" },
      user: { user_id: ADMIN },
    });
    // Signed in already: no after-login cookie.
    expect(String(res.headers["set-cookie"] ?? "")).not.toMatch(/upbeat_after_login/);
  });

  it("without a session, a visit sets no cookie; the page's resume click does, and sign-in lands there (once)", async () => {
    const res = await get(authorizeUrl({ ...base, scope: "standups:write" }));
    expect(res.statusCode).toBe(302);
    const consent = String(res.headers.location);
    // Any site can send a signed-out browser here: that alone must not steer the next sign-in.
    expect(String(res.headers["set-cookie"] ?? "")).not.toMatch(/upbeat_after_login/);
    const id = /request=([\w-]+)/.exec(consent)![1]!;
    const resume = (headers: Record<string, string>, requestId = id) =>
      t.inject({
        method: "POST",
        url: `/dashboard/api/oauth/requests/${requestId}/resume`,
        headers,
        payload: headers["content-type"] ? "{}" : undefined,
        remoteAddress: nextAddress(),
      });
    // The dashboard's guards: cross-site refused, and a body that is not JSON (no type at all, too).
    const crossSite = await resume({ "content-type": "application/json", origin: "https://evil.example.com" });
    expect(crossSite.statusCode).toBe(403);
    expect((await resume({})).statusCode).toBe(415);
    expect(
      (
        await t.inject({
          method: "POST",
          url: `/dashboard/api/oauth/requests/${id}/resume`,
          headers: { "content-type": "text/plain" },
          payload: "{}",
          remoteAddress: nextAddress(),
        })
      ).statusCode,
    ).toBe(415);
    expect((await resume({ "content-type": "application/json" }, "req_never_issued")).statusCode).toBe(404);
    for (const r of [crossSite]) expect(String(r.headers["set-cookie"] ?? "")).not.toMatch(/upbeat_after_login/);

    const ok = await resume({ "content-type": "application/json" });
    expect(ok.statusCode).toBe(204);
    const set = [ok.headers["set-cookie"]].flat().find((c) => c?.startsWith("upbeat_after_login="))!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).toMatch(/Secure/);
    expect(set).toMatch(/Max-Age=900/);
    const after = set.split(";")[0]!;
    const login = await t.inject({
      method: "GET",
      url: `/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, TEAM, ADMIN))}`,
      headers: { cookie: after },
      remoteAddress: nextAddress(),
    });
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toBe(consent);
    expect(String(login.headers["set-cookie"])).toMatch(/upbeat_after_login=;/);
    // Any other path in the cookie is ignored: no open redirect.
    const evil = await t.inject({
      method: "GET",
      url: `/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, TEAM, ADMIN))}`,
      headers: { cookie: `upbeat_after_login=${encodeURIComponent("https://evil.example.com/")}` },
      remoteAddress: nextAddress(),
    });
    expect(evil.headers.location).toBe("/dashboard");
    // Expired: nothing to come back to.
    t.clock.advance(11 * 60_000);
    expect((await resume({ "content-type": "application/json" })).statusCode).toBe(404);
  });

  it("limits authorization requests to 30 a minute per address", async () => {
    const from = "10.252.0.2";
    const send = () => t.inject({ method: "GET", url: authorizeUrl(base), remoteAddress: from });
    for (let i = 0; i < 30; i++) expect((await send()).statusCode).toBe(302);
    const over = await send();
    expect(over.statusCode).toBe(429);
    expect(over.headers["content-type"]).toMatch(/text\/html/);
  });

  it("consent requests: 404 unknown or expired, 409 once decided; deny redirects with access_denied", async () => {
    const id = await startAuthorization(t, { clientId, challenge, cookie, state: "deny-me" });
    const denied = await t.inject({
      method: "POST",
      url: `/dashboard/api/oauth/requests/${id}/deny`,
      headers: { cookie, "content-type": "application/json" },
      payload: "{}",
    });
    expect(denied.statusCode).toBe(200);
    const to = new URL(denied.json().redirect_to);
    expect(to.searchParams.get("error")).toBe("access_denied");
    expect(to.searchParams.get("state")).toBe("deny-me");
    expect(to.searchParams.get("iss")).toBe(`${APP_URL}/oauth`);
    const again = await t.inject({
      method: "POST",
      url: `/dashboard/api/oauth/requests/${id}/approve`,
      headers: { cookie, "content-type": "application/json" },
      payload: "{}",
    });
    expect(again.statusCode).toBe(409);
    expect(
      (await t.inject({ method: "GET", url: `/dashboard/api/oauth/requests/${id}`, headers: { cookie } })).statusCode,
    ).toBe(409);
    const unknown = await t.inject({ method: "GET", url: "/dashboard/api/oauth/requests/nope", headers: { cookie } });
    expect(unknown.statusCode).toBe(404);
    const later = await startAuthorization(t, { clientId, challenge, cookie });
    t.clock.advance(11 * 60_000);
    const expired = await t.inject({
      method: "GET",
      url: `/dashboard/api/oauth/requests/${later}`,
      headers: { cookie },
    });
    expect(expired.statusCode).toBe(404);
    // Cross-site: the dashboard's guard applies.
    const crossSite = await t.inject({
      method: "POST",
      url: `/dashboard/api/oauth/requests/${later}/approve`,
      headers: { cookie, "content-type": "application/json", origin: "https://evil.example.com" },
      payload: "{}",
    });
    expect(crossSite.statusCode).toBe(403);
    const noSession = await t.inject({ method: "GET", url: `/dashboard/api/oauth/requests/${later}` });
    expect(noSession.statusCode).toBe(401);
  });
});
