import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { html } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { SESSION_COOKIE } from "../../http/auth.ts";
import { addressKey, checkRateLimit } from "../../http/rate-limit.ts";
import type { App } from "../../http/server.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";
import {
  AFTER_LOGIN_COOKIE,
  AFTER_LOGIN_TTL_SECONDS,
  afterLoginCookieOptions,
  findSessionUser,
} from "../session/index.ts";
import { resolveClient } from "./clients.ts";
import {
  CHALLENGE_SHAPE,
  isOurResource,
  issuerOf,
  newRequestId,
  OAUTH_PER_MINUTE,
  parseScopes,
  REQUEST_TTL_MS,
  redirectWith,
  resourceOf,
} from "./oauth.model.ts";
import { insertRequest } from "./oauth.repo.ts";
import { matchRedirectUri } from "./redirect-uris.ts";

/** A repeated or odd parameter is as good as missing: the request is refused for it in plain words. */
const param = (what: string) => z.string().max(4000).optional().catch(undefined).describe(what);

const authorizeQuery = z.object({
  response_type: param("code"),
  client_id: param("A registered client id (mcpc_…) or the https URL of the client's metadata document"),
  redirect_uri: param("One of the client's redirect URIs (required when it has more than one)"),
  code_challenge: param("PKCE: BASE64URL(SHA256(code_verifier))"),
  code_challenge_method: param("S256 (plain is refused)"),
  state: param("Returned to the client unchanged"),
  scope: param("standups:read (default) and/or standups:write, space-separated"),
  resource: param("RFC 8707: this server's /mcp (the default)"),
});
type AuthorizeQuery = z.output<typeof authorizeQuery>;

function errorPage(reply: FastifyReply, status: number, message: string) {
  return reply
    .status(status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(
      htmlPage(
        "Cannot connect to Upbeat",
        `<h1>This app cannot connect to Upbeat</h1><p>${escapeHtml(message)}</p><p>Go back to the app and try connecting again; if it keeps failing, tell whoever set it up.</p>`,
      ),
    );
}

/** Whether the browser already holds a live dashboard session (else it signs in from Slack first). */
async function signedIn(deps: Deps, req: FastifyRequest): Promise<boolean> {
  const raw = req.cookies[SESSION_COOKIE];
  if (!raw || raw.length > 200) return false;
  return (await findSessionUser(deps.db, sha256Hex(raw), deps.clock.now())) !== undefined;
}

/**
 * The authorization endpoint. Until the client and its redirect URI are known, a problem is shown to the person
 * (a page): redirecting to an unchecked URI would make this an open redirector. From then on, problems go back to
 * the client (RFC 6749 §4.1.2.1) with `state` and `iss` (RFC 9207).
 */
async function authorize(deps: Deps, req: FastifyRequest<{ Querystring: AuthorizeQuery }>, reply: FastifyReply) {
  const rate = await checkRateLimit(deps, reply, `oauth-authorize:${addressKey(req.ip)}`, OAUTH_PER_MINUTE);
  if (!rate.allowed) return errorPage(reply, 429, "Too many connection attempts from your address. Wait a minute.");
  const q = req.query;
  if (!q.client_id) return errorPage(reply, 400, "The request names no client (client_id is missing).");
  const found = await resolveClient(deps, q.client_id);
  if (!found.ok) return errorPage(reply, 400, found.description);
  const client = found.client;
  const redirectUri = matchRedirectUri(client.redirectUris, q.redirect_uri);
  if (!redirectUri)
    return errorPage(
      reply,
      400,
      q.redirect_uri === undefined
        ? "The request names no redirect_uri, and the client has more than one."
        : "The redirect_uri is not one the client registered.",
    );
  const appUrl = deps.config.appUrl;
  const back = (error: string, description: string) =>
    reply
      .header("cache-control", "no-store")
      .redirect(
        redirectWith(redirectUri, { error, error_description: description, state: q.state, iss: issuerOf(appUrl) }),
        302,
      );
  if (q.response_type !== "code") return back("unsupported_response_type", "response_type must be code");
  if (!q.code_challenge) return back("invalid_request", "code_challenge is required (PKCE with S256)");
  if (q.code_challenge_method !== "S256")
    return back("invalid_request", "code_challenge_method must be S256 (plain is not supported)");
  if (!CHALLENGE_SHAPE.test(q.code_challenge))
    return back("invalid_request", "code_challenge must be 43 base64url characters (S256)");
  const scopes = parseScopes(q.scope);
  if (!scopes) return back("invalid_scope", "scope may hold only standups:read and standups:write");
  if (q.resource !== undefined && !isOurResource(q.resource, appUrl))
    return back("invalid_target", `resource must be ${resourceOf(appUrl)}`);

  const id = newRequestId();
  const now = deps.clock.now();
  await insertRequest(deps.db, {
    idHash: sha256Hex(id),
    clientId: client.clientId,
    redirectUri,
    state: q.state ?? null,
    codeChallenge: q.code_challenge,
    scopes,
    resource: resourceOf(appUrl),
    createdAt: now,
    expiresAt: new Date(now.getTime() + REQUEST_TTL_MS),
  });
  const consent = `/dashboard/connect?request=${id}`;
  if (!(await signedIn(deps, req)))
    reply.setCookie(AFTER_LOGIN_COOKIE, consent, { ...afterLoginCookieOptions, maxAge: AFTER_LOGIN_TTL_SECONDS });
  return reply.header("cache-control", "no-store").redirect(consent, 302);
}

export function authorizeRoutes(app: App, deps: Deps): void {
  app.get(
    "/oauth/authorize",
    {
      schema: {
        summary: "OAuth authorization endpoint: checks the request, then on to the consent page in the dashboard",
        tags: ["oauth"],
        querystring: authorizeQuery,
        response: {
          302: z
            .undefined()
            .describe("On to /dashboard/connect?request=<id>, or back to the client's redirect URI with an error"),
          400: html("Unknown client, or a redirect URI it did not register (nothing is sent back to it)"),
          429: html(`More than ${OAUTH_PER_MINUTE} requests a minute from this address`),
        },
      },
    },
    (req, reply) => authorize(deps, req, reply),
  );
}
