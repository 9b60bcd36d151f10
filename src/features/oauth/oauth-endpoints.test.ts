import { describe, expect, it } from "vitest";
import { APP_URL, useTestApp } from "../../../test/support/app.ts";
import { nextAddress, TEST_REDIRECT } from "../../../test/support/mcp-oauth.ts";

const TEAM = "T0OAE";
const ADMIN = "U0OAEADMIN";

describe("the OAuth endpoints", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN, name: "Acme" });
  const _cookie = await t.signIn(TEAM, ADMIN);
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
      token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
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
      redirect_uris: [
        "https://claude.ai/api/mcp/auth_callback",
        "cursor://anysphere.cursor/callback",
        "vscode://vscode.github-authentication/did-authenticate",
        "claude://oauth/callback",
      ],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      client_name: "Claude",
      token_endpoint_auth_method: "none",
      redirect_uris: [
        "https://claude.ai/api/mcp/auth_callback",
        "cursor://anysphere.cursor/callback",
        "vscode://vscode.github-authentication/did-authenticate",
        "claude://oauth/callback",
      ],
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
      // Dangerous operating-system handlers: any ms-… scheme and the rest of the known list, in any case.
      ["ms-settings:privacy"],
      ["MS-OFFICECMD:open"],
      ["ms-msdt:/id"],
      ["search-ms:query=x"],
      ["intent://scan/#Intent;scheme=zxing;end"],
      ["vbscript:msgbox"],
      ["jar:https://example.com/a.jar!/"],
      ["view-source:https://example.com/"],
      ["about:blank"],
      ["blob:https://example.com/uuid"],
      ["chrome://settings"],
      ["chrome-extension://abc/cb"],
      ["shell:startup"],
      ["smb://host/share"],
      ["ftp://example.com/cb"],
      [TEST_REDIRECT, "ms-word:ofe|u|https://example.com/a.docx"],
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
      { token_endpoint_auth_method: "private_key_jwt" },
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
});
