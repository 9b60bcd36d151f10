import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import {
  decideRequest,
  oauthTokens,
  pkce,
  registerTestClient,
  startAuthorization,
  TEST_REDIRECT,
  tokenRequest,
} from "../../../test/support/mcp-oauth.ts";
import { rows } from "../../db/client.ts";
import { runMaintenance } from "../maintenance/index.ts";
import { createKey } from "../mcp-keys/index.ts";
import { oauthPruneSteps } from "./retention.ts";

const TEAM = "T0OAT";
const ADMIN = "U0OATADMIN";

describe("OAuth tokens", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM, { installer: ADMIN, name: "Acme" });
  const cookie = await t.signIn(TEAM, ADMIN);

  /** A consented request's code, with the verifier that goes with it. */
  const codeFor = async (clientId: string, scope?: string) => {
    const { verifier, challenge } = pkce();
    const id = await startAuthorization(t, { clientId, challenge, cookie, ...(scope ? { scope } : {}) });
    const approved = await decideRequest(t, cookie, id);
    expect(approved.statusCode).toBe(200);
    const to = new URL(approved.json().redirect_to);
    expect(to.searchParams.get("state")).toBe("st-1");
    return { code: to.searchParams.get("code")!, verifier };
  };
  const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
    tokenRequest(t, {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: TEST_REDIRECT,
      ...extra,
    });
  const mcpStatus = async (token: string, url = "/mcp") =>
    (
      await t.inject({
        method: "POST",
        url,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        payload: { jsonrpc: "2.0", id: 1, method: "ping" },
      })
    ).statusCode;
  const grantOf = async (clientId: string) =>
    (
      await rows<{ id: number; revoked_at: unknown; scopes: string[] }>(
        t.deps.db,
        sql`select id, revoked_at, scopes from oauth_grants where client_id = ${clientId} order by id desc limit 1`,
      )
    )[0]!;

  it("exchanges a code once for a token pair, and the access token opens /mcp", async () => {
    const clientId = await registerTestClient(t);
    const { code, verifier } = await codeFor(clientId, "standups:write");
    const res = await exchange(clientId, code, verifier, { resource: "http://localhost:3000/mcp" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^upa_[0-9A-Za-z]{43}$/),
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^upr_[0-9A-Za-z]{43}$/),
      scope: "standups:read standups:write",
    });
    expect(await mcpStatus(body.access_token)).toBe(200);
    // Only hashes are stored.
    const stored = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from oauth_tokens where token_hash in (${body.access_token}, ${body.refresh_token}, ${code})`,
    );
    expect(stored[0]!.n).toBe(0);
    // A second use of the code revokes the grant: the tokens it gave stop working.
    const again = await exchange(clientId, code, verifier);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe("invalid_grant");
    expect(await mcpStatus(body.access_token)).toBe(401);
    expect((await grantOf(clientId)).revoked_at).not.toBeNull();
  });

  it("refuses a wrong verifier, a wrong client, a wrong redirect URI, another resource and an expired code", async () => {
    const clientId = await registerTestClient(t);
    const other = await registerTestClient(t);
    const cases: [Record<string, string>, string, string?][] = [
      [{ code_verifier: pkce().verifier }, "invalid_grant"],
      [{ client_id: other }, "invalid_grant"],
      [{ redirect_uri: "http://127.0.0.1:8765/other" }, "invalid_grant"],
      [{ resource: "https://other.example.com/mcp" }, "invalid_target"],
    ];
    for (const [override, error] of cases) {
      const { code, verifier } = await codeFor(clientId);
      const res = await tokenRequest(t, {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: TEST_REDIRECT,
        ...override,
      });
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json().error, JSON.stringify(override)).toBe(error);
    }
    const { code, verifier } = await codeFor(clientId);
    t.clock.advance(61_000);
    const expired = await exchange(clientId, code, verifier);
    expect(expired.json().error).toBe("invalid_grant");
    expect(expired.json().error_description).toMatch(/expired/);
    const missing = await tokenRequest(t, { grant_type: "authorization_code", code });
    expect(missing.json().error).toBe("invalid_request");
    const unsupported = await tokenRequest(t, { grant_type: "password" });
    expect(unsupported.json().error).toBe("unsupported_grant_type");
    const json = await t.inject({ method: "POST", url: "/oauth/token", payload: { grant_type: "client_credentials" } });
    expect(json.json().error).toBe("unsupported_grant_type");
  });

  it("rotates refresh tokens; a used one presented again revokes the grant", async () => {
    const first = await oauthTokens(t, cookie, { scope: "standups:write" });
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      tokenRequest(t, { grant_type: "refresh_token", refresh_token: token, client_id: first.clientId, ...extra });
    const wider = await oauthTokens(t, cookie);
    const widen = await tokenRequest(t, {
      grant_type: "refresh_token",
      refresh_token: wider.refresh_token,
      client_id: wider.clientId,
      scope: "standups:write",
    });
    expect(widen.json().error).toBe("invalid_scope");
    const wrongClient = await refresh(first.refresh_token, { client_id: wider.clientId });
    expect(wrongClient.json().error).toBe("invalid_grant");

    const second = await refresh(first.refresh_token);
    expect(second.statusCode).toBe(200);
    const pair = second.json();
    expect(pair.refresh_token).not.toBe(first.refresh_token);
    expect(pair.scope).toBe("standups:read standups:write");
    expect(await mcpStatus(pair.access_token)).toBe(200);
    // Narrowing is allowed (and sticks to the grant).
    const narrowed = await refresh(pair.refresh_token, { scope: "standups:read" });
    expect(narrowed.json().scope).toBe("standups:read");
    expect((await grantOf(first.clientId)).scopes).toEqual(["standups:read"]);
    const latest = narrowed.json();
    // The first refresh token, used already, presented again: refused, and the whole grant goes.
    const replay = await refresh(first.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe("invalid_grant");
    expect(await mcpStatus(latest.access_token)).toBe(401);
    expect((await refresh(latest.refresh_token)).json().error).toBe("invalid_grant");
  });

  it("access tokens expire after an hour; revocation (RFC 7009) ends the grant and always answers 200", async () => {
    const a = await oauthTokens(t, cookie);
    t.clock.advance(3601_000);
    expect(await mcpStatus(a.access_token)).toBe(401);
    const b = await oauthTokens(t, cookie);
    const revoke = (form: Record<string, string>) =>
      t.inject({
        method: "POST",
        url: "/oauth/revoke",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(form).toString(),
      });
    expect((await revoke({ token: "upa_nothing" })).statusCode).toBe(200);
    expect((await revoke({ token: b.access_token, client_id: a.clientId })).statusCode).toBe(200);
    expect(await mcpStatus(b.access_token)).toBe(200);
    const res = await revoke({ token: b.refresh_token, token_type_hint: "refresh_token" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(await mcpStatus(b.access_token)).toBe(401);
  });

  it("a token whose grant is for another resource, or whose workspace is uninstalled, is refused", async () => {
    const a = await oauthTokens(t, cookie);
    const grant = await grantOf(a.clientId);
    await t.deps.db.execute(
      sql`update oauth_grants set resource = 'https://elsewhere.example.com/mcp' where id = ${grant.id}`,
    );
    expect(await mcpStatus(a.access_token)).toBe(401);
    await t.deps.db.execute(sql`update oauth_grants set resource = 'http://localhost:3000/mcp' where id = ${grant.id}`);
    expect(await mcpStatus(a.access_token)).toBe(200);
    await t.deps.db.execute(
      sql`update oauth_grants set revoked_at = ${t.clock.now().toISOString()} where id = ${grant.id}`,
    );
    expect(await mcpStatus(a.access_token)).toBe(401);
  });

  it("/mcp/key takes keys only; a grant's last use is written at most once a minute", async () => {
    const a = await oauthTokens(t, cookie);
    const key = (await createKey(t.deps, TEAM, ADMIN, { name: "k" })).key;
    expect(await mcpStatus(key, "/mcp/key")).toBe(200);
    expect(await mcpStatus(key, "/mcp")).toBe(200);
    expect(await mcpStatus(a.access_token, "/mcp/key")).toBe(401);
    const lastUsed = async () =>
      (
        await rows<{ at: string | null }>(
          t.deps.db,
          sql`select to_char(last_used_at at time zone 'UTC', 'HH24:MI:SS') as at from oauth_grants where client_id = ${a.clientId} order by id desc limit 1`,
        )
      )[0]!.at;
    expect(await lastUsed()).toBeNull();
    t.clock.set("2026-03-10T10:00:00Z");
    expect(await mcpStatus(a.access_token)).toBe(401); // expired by now: a fresh pair
    const b = await oauthTokens(t, cookie, { clientId: a.clientId });
    expect(await mcpStatus(b.access_token)).toBe(200);
    const first = await lastUsed();
    expect(first).toBe("10:00:00");
    t.clock.advance(30_000);
    expect(await mcpStatus(b.access_token)).toBe(200);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    expect(await mcpStatus(b.access_token)).toBe(200);
    expect(await lastUsed()).toBe("10:01:01");
  });

  it("prunes expired codes and tokens, used refresh tokens, old requests, revoked grants' tokens and unused clients", async () => {
    const unused = await registerTestClient(t);
    const kept = await oauthTokens(t, cookie);
    const now = t.clock.now();
    const later = new Date(now.getTime() + 8 * 86_400_000);
    await runMaintenance(t.deps, later, { steps: oauthPruneSteps });
    const left = await rows<{ client_id: string }>(t.deps.db, sql`select client_id from oauth_clients`);
    expect(left.map((r) => r.client_id)).not.toContain(unused);
    expect(left.map((r) => r.client_id)).toContain(kept.clientId);
    const tokens = await rows<{ kind: string; used: boolean }>(
      t.deps.db,
      sql`select kind, used_at is not null as used from oauth_tokens`,
    );
    // Only unused, unexpired refresh tokens of live grants remain.
    expect(tokens.every((r) => r.kind === "refresh" && !r.used)).toBe(true);
    expect(tokens.length).toBeGreaterThan(0);
    // A grant deleted with a member's data takes its tokens along at the next run.
    const gone = await oauthTokens(t, cookie);
    await t.deps.db.execute(sql`delete from oauth_grants where client_id = ${gone.clientId}`);
    await runMaintenance(t.deps, later, { steps: oauthPruneSteps });
    const orphaned = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from oauth_tokens t where not exists (select 1 from oauth_grants g where g.id = t.grant_id)`,
    );
    expect(orphaned[0]!.n).toBe(0);
    const requests = await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from oauth_requests`);
    expect(requests[0]!.n).toBe(0);
    const revokedTokens = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from oauth_tokens t join oauth_grants g on g.id = t.grant_id where g.revoked_at is not null`,
    );
    expect(revokedTokens[0]!.n).toBe(0);
    await runMaintenance(t.deps, new Date(now.getTime() + 100 * 86_400_000), { steps: oauthPruneSteps });
    const grants = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from oauth_grants where revoked_at is not null`,
    );
    expect(grants[0]!.n).toBe(0);
  });
});
