import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../deps.ts";
import { CORS_HEADERS, preflight, resourceMetadataUrlOf, withCors } from "../features/oauth/index.ts";
import { checkRateLimit } from "../http/rate-limit.ts";
import { BODY_LIMIT, PACKAGE_VERSION } from "../http/server.ts";
import { parseJsonBody, RPC, type RpcId, requestIdOf, rpcErrorBody, sendRpcError } from "./jsonrpc.ts";
import { mcpInfoBody, mcpPostResponses, methodNotAllowedResponse, rpcRequestDoc } from "./mcp.schemas.ts";
import { authenticateMcp, credentialBucket } from "./mcp-auth.ts";
import { createMcpServer, SERVER_NAME, TOOL_NAMES } from "./mcp-server.ts";
import type { McpPrincipal } from "./tool-kit.ts";

export const MCP_PER_MINUTE = 120;
const MCP_PATH = "/mcp";
/** The same server for API keys only: key-based clients (Cursor, Claude Code, VS Code) see no OAuth to start. */
const KEY_PATH = "/mcp/key";
const ALLOW = "POST, GET";

export function mcpInfo(appUrl: string) {
  return {
    name: SERVER_NAME,
    version: PACKAGE_VERSION,
    transport: "http",
    endpoint: `${appUrl}/mcp`,
    auth:
      "OAuth 2.1 (the MCP authorization specification): clients that support it discover the authorization server " +
      `from ${resourceMetadataUrlOf(appUrl)} and ask the person to approve in the dashboard. ` +
      "Or a Bearer API key from the dashboard (AI access): send Authorization: Bearer <API_KEY> with every POST, " +
      `preferably to ${appUrl}/mcp/key, which takes keys only and advertises no OAuth. ` +
      "Workspace admins create keys; they begin with svc_ and are shown once.",
    docs: `${appUrl}/dashboard`,
    tools: [...TOOL_NAMES],
  };
}

function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "")?.[1];
}

/** A stateless server keeps no stream open for server-initiated messages, and no session to delete. */
function methodNotAllowed(reply: FastifyReply): FastifyReply {
  return sendRpcError(
    reply.header("allow", ALLOW),
    405,
    RPC.serverError,
    "Method not allowed: this stateless server offers no SSE stream or session; POST JSON-RPC requests to /mcp",
    null,
  );
}

/** Failures before the handler (too large a body) answer in JSON-RPC, not in the dashboard's shape. */
function rpcErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status =
    typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) req.log.error({ err }, "mcp request failed");
  const message =
    status === 413 ? "Request body is larger than 1 MB" : status === 500 ? "Internal error" : "Invalid request";
  sendRpcError(reply, status, status === 500 ? RPC.internalError : RPC.serverError, message, null);
}

/**
 * Hands the request to the official SDK: a new server and transport per request (stateless, JSON
 * responses), bound to the key's workspace. Fastify steps aside (hijack) because the SDK writes
 * the response itself.
 */
async function serveMcp(deps: Deps, owner: McpPrincipal, req: FastifyRequest, reply: FastifyReply, message: unknown) {
  const server = createMcpServer({ deps, ...owner });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const res = reply.raw;
  reply.hijack();
  res.setHeader("x-request-id", req.id);
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("cache-control", "no-store");
  for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
  res.on("close", () => {
    server.close().catch((err: unknown) => req.log.warn({ err: String(err) }, "mcp server close failed"));
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req.raw, res, message);
  } catch (err) {
    req.log.error({ err, team_id: owner.teamId }, "mcp request failed");
    if (!res.headersSent) {
      res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
      res.end(
        JSON.stringify(rpcErrorBody(RPC.internalError, "Internal error", requestIdOf({ ok: true, value: message }))),
      );
    } else if (!res.writableEnded) {
      res.end();
    }
  }
}

/** The 401 challenge: on /mcp it points OAuth clients at the protected resource metadata (RFC 9728). */
function challenge(deps: Deps, oauth: boolean, presented: boolean): string {
  const parts = ['Bearer realm="upbeat"'];
  if (oauth) parts.push(`resource_metadata="${resourceMetadataUrlOf(deps.config.appUrl)}"`);
  if (presented) parts.push('error="invalid_token"');
  return parts.join(", ");
}

async function handlePost(deps: Deps, req: FastifyRequest, reply: FastifyReply, opts: { oauth: boolean }) {
  withCors(reply);
  const parsed = parseJsonBody(req.body);
  const id: RpcId = requestIdOf(parsed);
  const presented = bearerToken(req.headers.authorization);
  const auth = presented ? await authenticateMcp(deps, presented, opts) : undefined;
  if (!auth) {
    reply.header("www-authenticate", challenge(deps, opts.oauth, presented !== undefined));
    const message = presented
      ? opts.oauth
        ? "Unauthorized: the API key or access token is invalid, expired or revoked"
        : "Unauthorized: the API key is invalid or has been revoked"
      : "Unauthorized: send the header Authorization: Bearer <API_KEY>; workspace admins create keys in the dashboard";
    return sendRpcError(reply, 401, RPC.unauthorized, message, id);
  }
  const now = deps.clock.now();
  const owner = auth.principal;
  const rate = await checkRateLimit(deps, reply, credentialBucket(owner), MCP_PER_MINUTE, now);
  if (!rate.allowed) {
    return sendRpcError(
      reply,
      429,
      RPC.serverError,
      `Rate limit exceeded: at most ${MCP_PER_MINUTE} requests a minute per API key or connected app; retry in ${rate.retryAfterSeconds} s`,
      id,
      { retry_after_seconds: rate.retryAfterSeconds },
    );
  }
  await auth.recordUse();
  if (!parsed.ok) return sendRpcError(reply, 400, RPC.parseError, "Parse error: the body is not valid JSON", null);
  await serveMcp(deps, owner, req, reply, parsed.value);
}

export function mcpRoutes(app: FastifyInstance, deps: Deps): void {
  // Encapsulated so /mcp can take its body as raw text: the Bearer check comes before any verdict
  // on the body, and every failure is a JSON-RPC error rather than the dashboard's {"error"}.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      done(null, body);
    });
    scope.setErrorHandler(rpcErrorHandler);

    for (const path of [MCP_PATH, KEY_PATH]) {
      const keysOnly = path === KEY_PATH;
      scope.get(
        path,
        {
          schema: {
            summary: keysOnly
              ? "What this MCP endpoint (API keys only) is and offers"
              : "What this MCP endpoint is and offers",
            response: { 200: mcpInfoBody, ...methodNotAllowedResponse },
          },
        },
        async (req, reply) => {
          withCors(reply);
          if ((req.headers.accept ?? "").toLowerCase().includes("text/event-stream")) return methodNotAllowed(reply);
          return mcpInfo(deps.config.appUrl);
        },
      );

      scope.delete(
        path,
        { schema: { summary: "No sessions to end", response: methodNotAllowedResponse } },
        async (_req, reply) => methodNotAllowed(withCors(reply)),
      );

      scope.post(
        path,
        {
          schema: keysOnly
            ? {
                summary:
                  "Model Context Protocol for API keys only: no OAuth is advertised, so key-based clients never start an OAuth flow",
                body: rpcRequestDoc,
                response: mcpPostResponses,
                security: [{ mcpKey: [] }],
              }
            : {
                summary:
                  "Model Context Protocol over Streamable HTTP (stateless, JSON answers): API keys or OAuth access tokens; read tools, and write tools with standups:write",
                body: rpcRequestDoc,
                response: mcpPostResponses,
              },
        },
        (req, reply) => handlePost(deps, req, reply, { oauth: !keysOnly }),
      );
      preflight(scope, path, "GET, POST, DELETE");
    }
  });
}
