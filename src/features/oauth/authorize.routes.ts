import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { html } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { addressKey, checkRateLimit } from "../../http/rate-limit.ts";
import type { App } from "../../http/server.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { escapeHtml, htmlPage } from "../../lib/html.ts";
import { resolveClient } from "./clients.ts";
import {
  CHALLENGE_SHAPE,
  isOurResource,
  newRequestId,
  OAUTH_PER_MINUTE,
  parseScopes,
  REQUEST_TTL_MS,
  resourceOf,
} from "./oauth.model.ts";
import { insertRequest } from "./oauth.repo.ts";
import { matchRedirectUri, redirectUriProblem } from "./redirect-uris.ts";

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
        `<h1>This app cannot connect to Upbeat</h1><p>${escapeHtml(message)}</p><p>Go back to your AI client and try connecting again; if it keeps failing, tell whoever set it up.</p>`,
      ),
    );
}

/**
 * The authorization endpoint. Every problem found here is shown to the person as a page, never sent to the redirect
 * URI: registration is open, so a registered redirect URI proves nothing about where it leads (RFC 9700 §4.11.2),
 * and redirecting on an error would make this an open redirector. Only the person's own Deny on the consent page
 * goes back to the client. A good request goes on to the consent page; a browser that is not signed in is asked
 * there to sign in first (the page itself offers to come back after sign-in).
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
  // A client registered before a scheme was refused keeps its URIs: it is refused here instead.
  const unsafe = redirectUriProblem(redirectUri);
  if (unsafe) return errorPage(reply, 400, `The client's redirect URI is refused: ${unsafe}.`);
  const appUrl = deps.config.appUrl;
  const refuse = (description: string) =>
    errorPage(reply, 400, `The app sent a request Upbeat cannot accept: ${description}.`);
  if (q.response_type !== "code") return refuse("response_type must be code");
  if (!q.code_challenge) return refuse("code_challenge is required (PKCE with S256)");
  if (q.code_challenge_method !== "S256") return refuse("code_challenge_method must be S256 (plain is not supported)");
  if (!CHALLENGE_SHAPE.test(q.code_challenge)) return refuse("code_challenge must be 43 base64url characters (S256)");
  const scopes = parseScopes(q.scope);
  if (!scopes) return refuse("scope may hold only standups:read and standups:write");
  if (q.resource !== undefined && !isOurResource(q.resource, appUrl))
    return refuse(`resource must be ${resourceOf(appUrl)}`);

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
  return reply.header("cache-control", "no-store").redirect(`/dashboard/connect?request=${id}`, 302);
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
          302: z.undefined().describe("On to the consent page, /dashboard/connect?request=<id>"),
          400: html("Any problem with the request, shown to the person (nothing is sent to the redirect URI)"),
          429: html(`More than ${OAUTH_PER_MINUTE} requests a minute from this address`),
        },
      },
    },
    (req, reply) => authorize(deps, req, reply),
  );
}
