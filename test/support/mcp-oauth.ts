import { createHash, randomBytes } from "node:crypto";
import type { TestApp } from "./app.ts";

/**
 * The MCP OAuth flow driven over the test app's HTTP (inject), as a client and a browser would: register, authorize,
 * approve in the consent API, exchange the code. Each step comes from its own address, so the per-address limits
 * never decide a test that is not about them.
 */

export const TEST_REDIRECT = "http://127.0.0.1:8765/callback";

let addresses = 0;
export const nextAddress = () => {
  addresses += 1;
  return `10.251.${addresses >> 8}.${addresses & 255}`;
};

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function registerTestClient(
  t: Pick<TestApp, "inject">,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.inject({
    method: "POST",
    url: "/oauth/register",
    remoteAddress: nextAddress(),
    payload: { client_name: "Test AI", redirect_uris: [TEST_REDIRECT], ...body },
  });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return res.json().client_id as string;
}

export function authorizeUrl(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q}`;
}

/** GET /oauth/authorize as the browser (with a session cookie when given); the consent request id from the 302. */
export async function startAuthorization(
  t: Pick<TestApp, "inject">,
  opts: { clientId: string; challenge: string; cookie?: string; scope?: string; state?: string; redirectUri?: string },
): Promise<string> {
  const res = await t.inject({
    method: "GET",
    url: authorizeUrl({
      response_type: "code",
      client_id: opts.clientId,
      redirect_uri: opts.redirectUri ?? TEST_REDIRECT,
      code_challenge: opts.challenge,
      code_challenge_method: "S256",
      state: opts.state ?? "st-1",
      scope: opts.scope,
    }),
    remoteAddress: nextAddress(),
    ...(opts.cookie ? { headers: { cookie: opts.cookie } } : {}),
  });
  const location = String(res.headers.location ?? "");
  const id = /^\/dashboard\/connect\?request=([\w-]+)$/.exec(location)?.[1];
  if (res.statusCode !== 302 || !id) throw new Error(`authorize: ${res.statusCode} ${location} ${res.body}`);
  return id;
}

export async function decideRequest(
  t: Pick<TestApp, "inject">,
  cookie: string,
  id: string,
  action: "approve" | "deny" = "approve",
) {
  return t.inject({
    method: "POST",
    url: `/dashboard/api/oauth/requests/${id}/${action}`,
    headers: { cookie, "content-type": "application/json" },
    payload: "{}",
  });
}

export async function tokenRequest(t: Pick<TestApp, "inject">, form: Record<string, string>) {
  return t.inject({
    method: "POST",
    url: "/oauth/token",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(form).toString(),
  });
}

/** The whole flow: a registered client, consent by the signed-in member, tokens. */
export async function oauthTokens(
  t: Pick<TestApp, "inject">,
  cookie: string,
  opts: { scope?: string; clientId?: string } = {},
): Promise<{ clientId: string; access_token: string; refresh_token: string; scope: string }> {
  const clientId = opts.clientId ?? (await registerTestClient(t));
  const { verifier, challenge } = pkce();
  const id = await startAuthorization(t, { clientId, challenge, cookie, ...(opts.scope ? { scope: opts.scope } : {}) });
  const approved = await decideRequest(t, cookie, id);
  if (approved.statusCode !== 200) throw new Error(`approve: ${approved.statusCode} ${approved.body}`);
  const code = new URL(approved.json().redirect_to).searchParams.get("code") ?? "";
  const res = await tokenRequest(t, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: TEST_REDIRECT,
  });
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
  return { clientId, ...res.json() };
}
