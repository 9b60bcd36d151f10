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

const TEAM = "T0OAE";
const ADMIN = "U0OAEADMIN";

describe("the OAuth endpoints", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN, name: "Acme" });
  const cookie = await t.signIn(TEAM, ADMIN);
  const register = (payload: unknown) =>
    t.inject({ method: "POST", url: "/oauth/register", remoteAddress: nextAddress(), payload: payload as object });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.inject({ method: "GET", url, headers, remoteAddress: nextAddress() });

  it("serves the protected resource and authorization server metadata, with CORS", async () => {
    const prm = await get("/.well-known/oauth-protected-resource/mcp");
    expect(prm.statusCode).toBe(200);
    expect(prm.headers["access-control-allow-origin"]).toBe("*");
    expect(prm.headers["cache-control"]).toBe("public, max-age=3600");
    expect(prm.json()).toEqual({
      resource: `${APP_URL}/mcp`,
      authorization_servers: [`${APP_URL}/oauth`],
      scopes_supported: ["standups:read", "standups:write"],
      bearer_methods_supported: ["header"],
      resource_name: "Upbeat",
      resource_documentation: `${APP_URL}/dashboard`,
    });
    const as = await get("/.well-known/oauth-authorization-server/oauth");
    expect(as.json()).toMatchObject({
      issuer: `${APP_URL}/oauth`,
      authorization_endpoint: `${APP_URL}/oauth/authorize`,
      token_endpoint: `${APP_URL}/oauth/token`,
      registration_endpoint: `${APP_URL}/oauth/register`,
      revocation_endpoint: `${APP_URL}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ["standups:read", "standups:write"],
    });
    expect((await get("/.well-known/openid-configuration/oauth")).json()).toEqual(as.json());
    // Nothing at the root well-knowns: the key path has nothing to discover.
    expect((await get("/.well-known/oauth-protected-resource")).statusCode).toBe(404);
    expect((await get("/.well-known/oauth-authorization-server")).statusCode).toBe(404);
  });

  it("answers CORS preflights of the token endpoint and /mcp", async () => {
    for (const url of ["/oauth/token", "/oauth/register", "/mcp"]) {
      const res = await t.inject({
        method: "OPTIONS",
        url,
        headers: { origin: "https://claude.ai", "access-control-request-method": "POST" },
      });
      expect(res.statusCode, url).toBe(204);
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
      expect(String(res.headers["access-control-allow-headers"])).toMatch(
        /authorization.*content-type.*mcp-protocol-version.*mcp-session-id/,
      );
    }
    const unauth = await t.inject({ method: "POST", url: "/mcp", payload: "{}" });
    expect(unauth.headers["access-control-allow-origin"]).toBe("*");
    expect(String(unauth.headers["access-control-expose-headers"])).toMatch(/www-authenticate/);
  });

  it("a 401 of POST /mcp points at the resource metadata; /mcp/key advertises no OAuth", async () => {
    const bare = await t.inject({ method: "POST", url: "/mcp", payload: "{}" });
    expect(bare.statusCode).toBe(401);
    expect(bare.headers["www-authenticate"]).toBe(
      `Bearer realm="upbeat", resource_metadata="${APP_URL}/.well-known/oauth-protected-resource/mcp"`,
    );
    const bad = await t.inject({
      method: "POST",
      url: "/mcp",
      payload: "{}",
      headers: { authorization: "Bearer upa_x" },
    });
    expect(bad.headers["www-authenticate"]).toBe(
      `Bearer realm="upbeat", resource_metadata="${APP_URL}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
    );
    const key = await t.inject({ method: "POST", url: "/mcp/key", payload: "{}" });
    expect(key.statusCode).toBe(401);
    expect(key.headers["www-authenticate"]).toBe('Bearer realm="upbeat"');
    const keyBad = await t.inject({
      method: "POST",
      url: "/mcp/key",
      payload: "{}",
      headers: { authorization: "Bearer upa_x" },
    });
    expect(keyBad.headers["www-authenticate"]).toBe('Bearer realm="upbeat", error="invalid_token"');
    expect((await get("/mcp/key")).json().auth).toMatch(/\/mcp\/key/);
  });

  it("registers a client (RFC 7591) and refuses bad metadata in its shape", async () => {
    const ok = await register({
      client_name: "Claude",
      redirect_uris: ["https://claude.ai/api/mcp/auth_callback", "cursor://anysphere.cursor/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      client_name: "Claude",
      token_endpoint_auth_method: "none",
      redirect_uris: ["https://claude.ai/api/mcp/auth_callback", "cursor://anysphere.cursor/callback"],
    });
    expect(ok.json().client_id).toMatch(/^mcpc_[0-9A-Za-z]{22}$/);
    expect(ok.json().client_id_issued_at).toBe(Math.floor(t.clock.now().getTime() / 1000));
    const unnamed = await register({ redirect_uris: ["http://localhost:33418/cb"] });
    expect(unnamed.json().client_name).toBe("Unnamed client");

    const badUris: unknown[] = [
      undefined,
      [],
      ["http://example.com/cb"],
      ["javascript:alert(1)"],
      ["data:text/html,hi"],
      ["file:///etc/passwd"],
      ["https://example.com/cb#frag"],
      ["not a uri"],
      Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`),
    ];
    for (const redirect_uris of badUris) {
      const res = await register({ client_name: "x", redirect_uris });
      expect(res.statusCode, JSON.stringify(redirect_uris)).toBe(400);
      expect(res.json().error).toBe("invalid_redirect_uri");
      expect(res.json().error_description).toBeTruthy();
    }
    for (const extra of [
      { client_name: "x".repeat(101) },
      { token_endpoint_auth_method: "client_secret_post" },
      { grant_types: ["client_credentials"] },
      { response_types: ["token"] },
      { client_uri: "ftp://example.com" },
    ]) {
      const res = await register({ redirect_uris: [TEST_REDIRECT], ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error).toBe("invalid_client_metadata");
    }
    const notJson = await t.inject({
      method: "POST",
      url: "/oauth/register",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toBe("invalid_request");
  });

  it("limits registration to 30 a minute per address", async () => {
    const from = "10.252.0.1";
    const send = () =>
      t.inject({
        method: "POST",
        url: "/oauth/register",
        remoteAddress: from,
        payload: { redirect_uris: [TEST_REDIRECT] },
      });
    for (let i = 0; i < 30; i++) expect((await send()).statusCode).toBe(201);
    const over = await send();
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toBeDefined();
  });

  describe("authorize", async () => {
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

    it("sends later problems back to the client with error, state and iss", async () => {
      for (const [params, error] of [
        [{ ...base, response_type: "token" }, "unsupported_response_type"],
        [{ ...base, code_challenge: undefined }, "invalid_request"],
        [{ ...base, code_challenge_method: "plain" }, "invalid_request"],
        [{ ...base, code_challenge_method: undefined }, "invalid_request"],
        [{ ...base, scope: "standups:read admin" }, "invalid_scope"],
        [{ ...base, resource: "https://other.example.com/mcp" }, "invalid_target"],
      ] as const) {
        const res = await get(authorizeUrl(params));
        expect(res.statusCode, JSON.stringify(params)).toBe(302);
        const to = new URL(String(res.headers.location));
        expect(`${to.origin}${to.pathname}`).toBe(TEST_REDIRECT);
        expect(to.searchParams.get("error")).toBe(error);
        expect(to.searchParams.get("error_description")).toBeTruthy();
        expect(to.searchParams.get("state")).toBe("s<1>");
        expect(to.searchParams.get("iss")).toBe(`${APP_URL}/oauth`);
      }
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

    it("without a session, signing in from Slack lands back on the consent page (once)", async () => {
      const res = await get(authorizeUrl({ ...base, scope: "standups:write" }));
      expect(res.statusCode).toBe(302);
      const consent = String(res.headers.location);
      const set = [res.headers["set-cookie"]].flat().find((c) => c?.startsWith("upbeat_after_login="))!;
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
});
