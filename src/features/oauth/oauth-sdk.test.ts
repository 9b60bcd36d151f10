import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { connectWithOAuth as connectOAuth, SdkOAuthProvider } from "../../../test/support/mcp-oauth-sdk.ts";
import { freePort, startDocumentServer } from "../../../test/support/tls-document-server.ts";
import { rows } from "../../db/client.ts";
import { toolsFor } from "../../mcp/mcp-server.ts";

const TEAM = "T0SDK";
const ADMIN = "U0SDKADMIN";
const REDIRECT = "http://127.0.0.1:8976/callback";

/**
 * The MCP SDK's own client with its OAuth support against a real server: discovery from a bare 401, registration
 * (dynamic, and by Client ID Metadata Document over TLS), PKCE, consent through the dashboard API as the signed-in
 * browser, tokens, refresh and revocation.
 */
describe("MCP OAuth end to end with the SDK client", async () => {
  const docs = await startDocumentServer();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await useTestApp({
    env: { APP_URL: base },
    outbound: { allowLoopbackClientDocuments: true, extraCa: docs.ca },
  });
  await t.installTeam(TEAM, { installer: ADMIN, name: "Acme" });
  const cookie = await t.signIn(TEAM, ADMIN);
  await t.app.server.listen({ port, host: "127.0.0.1" });
  const mcpUrl = new URL(`${base}/mcp`);

  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await docs.close();
  });

  const env = { base, cookie, redirect: REDIRECT };
  class Provider extends SdkOAuthProvider {
    constructor(opts: { scope?: string; clientMetadataUrl?: string } = {}) {
      super(env, opts);
    }
  }
  const connectWithOAuth = async (provider: Provider) => {
    const client = await connectOAuth(mcpUrl, provider);
    clients.push(client);
    return client;
  };
  const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
  const postMcp = (token: string) =>
    fetch(mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
  const challenge = `Bearer realm="upbeat", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`;

  it("dynamic registration: discovery from a bare 401, PKCE, consent, read-only tools for a read-only grant", async () => {
    const provider = new Provider({ scope: "standups:read" });
    const client = await connectWithOAuth(provider);
    expect(provider.info?.client_id).toMatch(/^mcpc_/);
    const asked = provider.authorizeUrls[0]!;
    expect(asked.searchParams.get("code_challenge_method")).toBe("S256");
    expect(asked.searchParams.get("resource")).toBe(`${base}/mcp`);
    expect(provider.saved?.scope).toBe("standups:read");
    const names = await toolNames(client);
    expect(names).toEqual(
      toolsFor(["standups:read"])
        .map((tool) => tool.name)
        .sort(),
    );
    expect(names).not.toContain("submit_standup");
  });

  it("Client ID Metadata Document: the https URL is the client id; a read+write grant lists the write tools", async () => {
    const url = `${docs.base}/oauth/client.json`;
    docs.routes.set("/oauth/client.json", {
      body: JSON.stringify({
        client_id: url,
        client_name: "Doc Client",
        client_uri: "https://doc-client.example.com",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      }),
    });
    const provider = new Provider({ clientMetadataUrl: url });
    const client = await connectWithOAuth(provider);
    expect(provider.info?.client_id).toBe(url);
    expect(docs.hits).toContain("/oauth/client.json");
    expect(provider.saved?.scope).toBe("standups:read standups:write");
    expect(await toolNames(client)).toEqual(expect.arrayContaining(["submit_standup", "resolve_blocker"]));
    const [stored] = await rows<{ kind: string; client_name: string }>(
      t.deps.db,
      sql`select kind, client_name from oauth_clients where client_id = ${url}`,
    );
    expect(stored).toEqual({ kind: "metadata_document", client_name: "Doc Client" });
  });

  it("refresh: an expired access token is refreshed by the SDK; the old refresh token replayed kills the new pair", async () => {
    const provider = new Provider();
    const client = await connectWithOAuth(provider);
    const before = provider.saved!;
    t.clock.advance(3601_000);
    // The SDK meets a 401, refreshes (rotation) and retries on its own.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const after = provider.saved!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_token).not.toBe(before.access_token);
    expect((await postMcp(after.access_token)).status).toBe(200);
    const replay = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: before.refresh_token!,
        client_id: provider.info!.client_id,
      }),
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    const dead = await postMcp(after.access_token);
    expect(dead.status).toBe(401);
    expect(dead.headers.get("www-authenticate")).toBe(challenge);
  });

  it("revocation: /oauth/revoke, or the grant row revoked, and the next call is 401 with resource_metadata", async () => {
    const a = new Provider();
    await connectWithOAuth(a);
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://inspector.example.com" },
      body: new URLSearchParams({ token: a.saved!.access_token }),
    });
    expect(revoked.status).toBe(200);
    const afterRevoke = await postMcp(a.saved!.access_token);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.headers.get("www-authenticate")).toBe(challenge);

    const b = new Provider();
    await connectWithOAuth(b);
    expect((await postMcp(b.saved!.access_token)).status).toBe(200);
    await t.deps.db.execute(
      sql`update oauth_grants set revoked_at = ${t.clock.now().toISOString()} where client_id = ${b.info!.client_id}`,
    );
    const afterRow = await postMcp(b.saved!.access_token);
    expect(afterRow.status).toBe(401);
    expect(afterRow.headers.get("www-authenticate")).toBe(challenge);
  });

  it("a token whose grant names another resource is refused", async () => {
    const p = new Provider();
    await connectWithOAuth(p);
    await t.deps.db.execute(
      sql`update oauth_grants set resource = 'https://other.example.com/mcp' where client_id = ${p.info!.client_id}`,
    );
    expect((await postMcp(p.saved!.access_token)).status).toBe(401);
  });
});
