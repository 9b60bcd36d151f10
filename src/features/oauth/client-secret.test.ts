import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import {
  decideRequest,
  nextAddress,
  pkce,
  startAuthorization,
  TEST_REDIRECT,
  tokenRequest,
} from "../../../test/support/mcp-oauth.ts";
import { rows } from "../../db/client.ts";

const TEAM = "T0OCS";
const ADMIN = "U0OCSADMIN";

/**
 * Some clients (Claude among them) register with client_secret_post or client_secret_basic. They get a secret, shown
 * once, stored hashed, and must present it at the token endpoint; PKCE is still required.
 */
describe("dynamically registered clients with a secret", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN, name: "Acme" });
  const cookie = await t.signIn(TEAM, ADMIN);

  const registerWith = async (method: string) => {
    const res = await t.inject({
      method: "POST",
      url: "/oauth/register",
      remoteAddress: nextAddress(),
      payload: { client_name: "Claude", redirect_uris: [TEST_REDIRECT], token_endpoint_auth_method: method },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { client_id: string; client_secret?: string; token_endpoint_auth_method: string };
  };
  const codeFor = async (clientId: string) => {
    const { verifier, challenge } = pkce();
    const id = await startAuthorization(t, { clientId, challenge, cookie });
    const approved = await decideRequest(t, cookie, id);
    return { code: new URL(approved.json().redirect_to).searchParams.get("code")!, verifier };
  };
  const form = (clientId: string, code: string, verifier: string) => ({
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: TEST_REDIRECT,
  });

  it("client_secret_post: a secret shown once, stored only hashed; the token needs it", async () => {
    const client = await registerWith("client_secret_post");
    expect(client.token_endpoint_auth_method).toBe("client_secret_post");
    expect(client.client_secret).toMatch(/^upcs_[0-9A-Za-z]{43}$/);
    const stored = await rows<{ metadata: string }>(
      t.deps.db,
      sql`select metadata::text as metadata from oauth_clients where client_id = ${client.client_id}`,
    );
    expect(stored[0]!.metadata).not.toContain(client.client_secret!);

    const missing = await codeFor(client.client_id);
    const noSecret = await tokenRequest(t, form(client.client_id, missing.code, missing.verifier));
    expect(noSecret.statusCode).toBe(401);
    expect(noSecret.json().error).toBe("invalid_client");
    const wrong = await codeFor(client.client_id);
    // The secret with its last character changed (to another one: a secret may end in "x").
    const secret = client.client_secret!;
    const wrongSecret = await tokenRequest(t, {
      ...form(client.client_id, wrong.code, wrong.verifier),
      client_secret: `${secret.slice(0, -1)}${secret.endsWith("x") ? "y" : "x"}`,
    });
    expect(wrongSecret.statusCode).toBe(401);

    const right = await codeFor(client.client_id);
    const ok = await tokenRequest(t, {
      ...form(client.client_id, right.code, right.verifier),
      client_secret: client.client_secret!,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().access_token).toMatch(/^upa_/);
    // Refreshing needs the secret too.
    const refreshed = await tokenRequest(t, {
      grant_type: "refresh_token",
      refresh_token: ok.json().refresh_token,
      client_id: client.client_id,
    });
    expect(refreshed.statusCode).toBe(401);
  });

  it("client_secret_basic: id and secret in the Authorization header; a wrong one is 401 with Basic", async () => {
    const client = await registerWith("client_secret_basic");
    const basic = (secret: string) =>
      `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
    const post = (auth: string, body: Record<string, string>) =>
      t.inject({
        method: "POST",
        url: "/oauth/token",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: auth },
        payload: new URLSearchParams(body).toString(),
      });
    const bad = await codeFor(client.client_id);
    const { client_id: _omit, ...withoutId } = form(client.client_id, bad.code, bad.verifier);
    const refused = await post(basic("upcs_wrong"), withoutId);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe('Basic realm="upbeat"');
    const good = await codeFor(client.client_id);
    const { client_id: _omit2, ...body } = form(client.client_id, good.code, good.verifier);
    const ok = await post(basic(client.client_secret!), body);
    expect(ok.statusCode).toBe(200);
    // The PKCE verifier is still checked for a client with a secret.
    const third = await codeFor(client.client_id);
    const { client_id: _omit3, ...noPkce } = form(client.client_id, third.code, pkce().verifier);
    expect((await post(basic(client.client_secret!), noPkce)).json().error).toBe("invalid_grant");
  });

  it("a public client gets no secret, and a stray one is ignored", async () => {
    const client = await registerWith("none");
    expect(client.client_secret).toBeUndefined();
    const { code, verifier } = await codeFor(client.client_id);
    const ok = await tokenRequest(t, { ...form(client.client_id, code, verifier), client_secret: "anything" });
    expect(ok.statusCode).toBe(200);
  });
});
