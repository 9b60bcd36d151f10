import type { LightMyRequestResponse } from "fastify";
import { BOT_SCOPES, BROWSER_COOKIE } from "../../src/features/install/index.ts";
import type { TestApp } from "./app.ts";

/** What a browser holds after `GET /install`: the state Slack will send back, and the cookie the state is bound to. */
export interface OAuthStart {
  state: string;
  /** `upbeat_install=<key>`, ready for a Cookie header. */
  cookie: string;
  location: URL;
  response: LightMyRequestResponse;
}

/** The `name=value` of the install cookie among a response's Set-Cookie headers ("" when there is none). */
export function installCookieOf(setCookie: string | string[] | undefined): string {
  const line = [setCookie ?? []].flat().find((c) => c.startsWith(`${BROWSER_COOKIE}=`));
  return line ? line.split(";")[0]! : "";
}

/** `GET /install` as a browser: keeps the cookie it sets (for every callback path) with the state. */
export async function startOAuth(
  t: Pick<TestApp, "inject">,
  opts: { remoteAddress?: string } = {},
): Promise<OAuthStart> {
  const response = await t.inject({ method: "GET", url: "/install", ...opts });
  if (response.statusCode !== 302) throw new Error(`/install answered ${response.statusCode}`);
  const location = new URL(String(response.headers.location));
  return {
    state: location.searchParams.get("state") ?? "",
    cookie: installCookieOf(response.headers["set-cookie"]),
    location,
    response,
  };
}

/** Slack sending the same browser back to the callback with `query` (code, error, …) and the state. */
export function finishOAuth(
  t: Pick<TestApp, "inject">,
  start: Pick<OAuthStart, "state" | "cookie">,
  query: string,
  opts: { path?: string; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  const { path = "/oauth/callback", remoteAddress } = opts;
  return t.inject({
    method: "GET",
    url: `${path}?${query}${query ? "&" : ""}state=${encodeURIComponent(start.state)}`,
    headers: start.cookie ? { cookie: start.cookie } : {},
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/**
 * The whole OAuth install through the real routes, as a browser and Slack would do it: Slack is told to approve
 * `code` for this workspace and installer, then /install and the callback run with the install cookie.
 * Answers the callback's response (a 302 into the dashboard when it worked).
 */
export async function installThroughOAuth(
  t: Pick<TestApp, "inject" | "fake">,
  o: { code: string; teamId: string; teamName?: string; installer: string; botToken: string; botUserId: string },
  opts: { remoteAddress?: () => string } = {},
): Promise<LightMyRequestResponse> {
  t.fake.setOAuthCode(o.code, {
    team: { id: o.teamId, name: o.teamName ?? `Team ${o.teamId}` },
    botToken: o.botToken,
    botUserId: o.botUserId,
    scope: BOT_SCOPES.join(","),
    authedUserId: o.installer,
    clientId: "test-client-id",
    clientSecret: "test-client-secret",
  });
  const address = opts.remoteAddress ? () => ({ remoteAddress: opts.remoteAddress!() }) : () => ({});
  const start = await startOAuth(t, address());
  return finishOAuth(t, start, `code=${o.code}`, address());
}
