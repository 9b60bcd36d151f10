import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { expect } from "vitest";

/**
 * An MCP client's OAuth storage for the SDK's own client; its "browser" follows the authorization URL with the
 * signed-in member's session cookie and approves in the dashboard's consent API, as a person would on the page.
 */
export class SdkOAuthProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  code = "";
  authorizeUrls: URL[] = [];
  readonly clientMetadataUrl: string | undefined;
  constructor(
    readonly env: { base: string; cookie: string; redirect: string },
    readonly opts: { scope?: string; clientMetadataUrl?: string } = {},
  ) {
    this.clientMetadataUrl = opts.clientMetadataUrl;
  }
  get redirectUrl() {
    return this.env.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK test client",
      redirect_uris: [this.env.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return "sdk-state";
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    const { base, cookie, redirect } = this.env;
    // A client asking for less than everything: the scope it sends is what the person grants.
    if (this.opts.scope) url.searchParams.set("scope", this.opts.scope);
    this.authorizeUrls.push(new URL(url));
    const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    const id = new URL(res.headers.get("location")!, base).searchParams.get("request")!;
    const approved = await fetch(`${base}/dashboard/api/oauth/requests/${id}/approve`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: "{}",
    });
    expect(approved.status).toBe(200);
    const to = new URL(((await approved.json()) as { redirect_to: string }).redirect_to);
    expect(`${to.origin}${to.pathname}`).toBe(redirect);
    expect(to.searchParams.get("state")).toBe("sdk-state");
    expect(to.searchParams.get("iss")).toBe(`${base}/oauth`);
    this.code = to.searchParams.get("code")!;
  }
}

/** Connects as the SDK does: a 401, the OAuth dance, then connecting again with the token. */
export async function connectWithOAuth(mcpUrl: URL, provider: SdkOAuthProvider): Promise<Client> {
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await expect(new Client({ name: "sdk-test", version: "1.0.0" }).connect(first)).rejects.toThrow(UnauthorizedError);
  expect(provider.code).toMatch(/^upc_/);
  await first.finishAuth(provider.code);
  const client = new Client({ name: "sdk-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return client;
}
