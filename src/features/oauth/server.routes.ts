import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Deps } from "../../deps.ts";
import { addressKey, checkRateLimit } from "../../http/rate-limit.ts";
import type { App } from "../../http/server.ts";
import { authenticateClient } from "./client-auth.ts";
import { CLIENT_AUTH_METHODS, checkClientMetadata, registerClient } from "./clients.ts";
import { preflight, withCors } from "./cors.ts";
import { issuerOf, OAUTH_PER_MINUTE, resourceOf, SCOPES } from "./oauth.model.ts";
import {
  authorizationServerMetadata,
  formDoc,
  oauthError,
  protectedResourceMetadata,
  registeredClient,
  tokenResponse,
} from "./oauth.schemas.ts";
import { exchangeToken, revokeByToken } from "./token.service.ts";

const FORM_LIMIT = 64 * 1024;
const METADATA_CACHE = "public, max-age=3600";
const TAGS = ["oauth"];

export function protectedResourceBody(appUrl: string) {
  return {
    resource: resourceOf(appUrl),
    authorization_servers: [issuerOf(appUrl)],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header" as const],
    resource_name: "Upbeat",
    resource_documentation: `${appUrl}/dashboard`,
  };
}

export function authorizationServerBody(appUrl: string) {
  const issuer = issuerOf(appUrl);
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    revocation_endpoint: `${issuer}/revoke`,
    response_types_supported: ["code" as const],
    response_modes_supported: ["query" as const],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256" as const],
    // Public clients (PKCE) and dynamically registered ones that asked for a secret.
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: ["none" as const],
    client_id_metadata_document_supported: true as const,
    authorization_response_iss_parameter_supported: true as const,
    scopes_supported: [...SCOPES],
    service_documentation: `${appUrl}/dashboard`,
  };
}

/** Parse failures (bad JSON, a body too large, another content type) still answer in RFC 6749's shape. */
function oauthErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status =
    typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) req.log.error({ err }, "oauth request failed");
  withCors(reply)
    .status(status)
    .send(
      status === 500
        ? { error: "server_error", error_description: "Internal error" }
        : { error: "invalid_request", error_description: status === 413 ? "The body is too large" : err.message },
    );
}

const rateLimited = { 429: oauthError.describe(`More than ${OAUTH_PER_MINUTE} requests a minute from this address`) };

async function limited(deps: Deps, req: FastifyRequest, reply: FastifyReply, what: string): Promise<boolean> {
  const rate = await checkRateLimit(deps, reply, `oauth-${what}:${addressKey(req.ip)}`, OAUTH_PER_MINUTE);
  if (rate.allowed) return false;
  withCors(reply)
    .status(429)
    .send({ error: "slow_down", error_description: `Too many requests; retry in ${rate.retryAfterSeconds} s` });
  return true;
}

/** Discovery, registration, token and revocation: what clients call without a browser session. */
export function oauthServerRoutes(app: App, deps: Deps): void {
  const appUrl = deps.config.appUrl;
  for (const path of [
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/oauth-authorization-server/oauth",
    "/.well-known/openid-configuration/oauth",
  ]) {
    const resource = path.includes("protected-resource");
    app.get(
      path,
      {
        schema: {
          summary: resource
            ? "OAuth protected resource metadata of /mcp (RFC 9728)"
            : "OAuth authorization server metadata (RFC 8414; the same body for OpenID-style discovery)",
          tags: TAGS,
          response: { 200: resource ? protectedResourceMetadata : authorizationServerMetadata },
        },
      },
      async (_req, reply) =>
        withCors(reply)
          .header("cache-control", METADATA_CACHE)
          .send(resource ? protectedResourceBody(appUrl) : authorizationServerBody(appUrl)),
    );
    preflight(app, path, "GET");
  }

  // Registration, token and revocation take forms (RFC 6749) or JSON (RFC 7591), and answer every failure in
  // the OAuth shape: their own scope, parser and error handler.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: FORM_LIMIT },
      (_req, body, done) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of new URLSearchParams(String(body))) {
          // A repeated parameter is not a string, so the endpoint refuses it (RFC 6749 §3.1).
          const had = out[k];
          out[k] = had === undefined ? v : [had].flat().concat(v);
        }
        done(null, out);
      },
    );
    scope.setErrorHandler(oauthErrorHandler);

    scope.post(
      "/oauth/register",
      {
        bodyLimit: FORM_LIMIT,
        schema: {
          summary: "Register an MCP client (RFC 7591 dynamic client registration; public clients, PKCE)",
          tags: TAGS,
          body: formDoc("RFC 7591 client metadata (JSON)", {
            client_name: { type: "string", description: 'At most 100 characters (default "Unnamed client")' },
            client_uri: { type: "string" },
            token_endpoint_auth_method: { type: "string", description: '"none" if given' },
          }),
          response: {
            201: registeredClient,
            400: oauthError.describe("invalid_redirect_uri or invalid_client_metadata"),
            ...rateLimited,
          },
        },
      },
      async (req, reply) => {
        if (await limited(deps, req, reply, "register")) return reply;
        const checked = checkClientMetadata(req.body, { requireName: false, allowSecret: true });
        if (!checked.ok)
          return withCors(reply).status(400).send({ error: checked.error, error_description: checked.description });
        const created = await registerClient(deps, checked.metadata);
        return withCors(reply).status(201).header("cache-control", "no-store").send(created);
      },
    );
    preflight(scope, "/oauth/register", "POST");

    scope.post(
      "/oauth/token",
      {
        schema: {
          summary: "Exchange an authorization code (PKCE) or a refresh token for tokens",
          tags: TAGS,
          body: formDoc("application/x-www-form-urlencoded (or JSON)", {
            grant_type: { type: "string", description: "authorization_code or refresh_token" },
            code: { type: "string" },
            code_verifier: { type: "string" },
            redirect_uri: { type: "string" },
            client_id: { type: "string" },
            client_secret: { type: "string", description: "Only clients registered with client_secret_post" },
            refresh_token: { type: "string" },
            scope: { type: "string", description: "Refresh only: may narrow, never widen" },
            resource: { type: "string", description: "RFC 8707: this server's /mcp" },
          }),
          response: {
            200: tokenResponse,
            400: oauthError.describe("RFC 6749 §5.2 error"),
            401: oauthError.describe("invalid_client: a client registered with a secret did not present it"),
          },
        },
      },
      async (req, reply) => {
        const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
        withCors(reply).header("cache-control", "no-store").header("pragma", "no-cache");
        const client = await authenticateClient(deps, req.headers.authorization, body);
        if (!client.ok) {
          // RFC 6749 §5.2: a client that tried HTTP Basic is answered 401 with the scheme it used.
          if (client.basic) reply.status(401).header("www-authenticate", 'Basic realm="upbeat"');
          else reply.status(client.error === "invalid_client" ? 401 : 400);
          return reply.send({ error: client.error, error_description: client.description });
        }
        const outcome = await exchangeToken(deps, { ...body, client_id: client.clientId });
        if (!outcome.ok)
          return reply.status(400).send({ error: outcome.error, error_description: outcome.description });
        return reply.send(outcome.body);
      },
    );
    preflight(scope, "/oauth/token", "POST");

    scope.post(
      "/oauth/revoke",
      {
        schema: {
          summary: "Revoke the grant of an access or refresh token (RFC 7009)",
          tags: TAGS,
          body: formDoc("application/x-www-form-urlencoded (or JSON)", {
            token: { type: "string" },
            token_type_hint: { type: "string" },
            client_id: { type: "string" },
          }),
          response: { 200: z.object({}).describe("Always, whether or not the token was known") },
        },
      },
      async (req, reply) => {
        const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
        await revokeByToken(deps, body);
        return withCors(reply).header("cache-control", "no-store").send({});
      },
    );
    preflight(scope, "/oauth/revoke", "POST");
  });
}
