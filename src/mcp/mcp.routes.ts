import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../deps.ts";
import { checkRateLimit } from "../http/rate-limit.ts";
import { BODY_LIMIT, PACKAGE_VERSION } from "../http/server.ts";
import { parseJsonBody, RPC, type RpcId, requestIdOf, rpcErrorBody, sendRpcError } from "./jsonrpc.ts";
import { mcpInfoBody, mcpPostResponses, methodNotAllowedResponse, rpcRequestDoc } from "./mcp.schemas.ts";
import { authenticateMcp, credentialBucket } from "./mcp-auth.ts";
import { createMcpServer, SERVER_NAME, TOOL_NAMES } from "./mcp-server.ts";
import type { McpPrincipal } from "./tool-kit.ts";

export const MCP_PER_MINUTE = 120;
const ALLOW = "POST, GET";

export function mcpInfo(appUrl: string) {
  return {
    name: SERVER_NAME,
    version: PACKAGE_VERSION,
    transport: "http",
    endpoint: `${appUrl}/mcp`,
    auth:
      "Bearer API key from the dashboard (AI access): send Authorization: Bearer <API_KEY> with every POST. " +
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

export function mcpRoutes(app: FastifyInstance, deps: Deps): void {
  // Encapsulated so /mcp can take its body as raw text: the Bearer check comes before any verdict
  // on the body, and every failure is a JSON-RPC error rather than the dashboard's {"error"}.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      done(null, body);
    });
    scope.setErrorHandler(rpcErrorHandler);

    scope.get(
      "/mcp",
      {
        schema: {
          summary: "What this MCP endpoint is and offers",
          response: { 200: mcpInfoBody, ...methodNotAllowedResponse },
        },
      },
      async (req, reply) => {
        if ((req.headers.accept ?? "").toLowerCase().includes("text/event-stream")) return methodNotAllowed(reply);
        return mcpInfo(deps.config.appUrl);
      },
    );

    scope.delete(
      "/mcp",
      { schema: { summary: "No sessions to end", response: methodNotAllowedResponse } },
      async (_req, reply) => methodNotAllowed(reply),
    );

    scope.post(
      "/mcp",
      {
        schema: {
          summary: "Model Context Protocol over Streamable HTTP (stateless, JSON answers); read and write tools",
          body: rpcRequestDoc,
          response: mcpPostResponses,
        },
      },
      async (req, reply) => {
        const parsed = parseJsonBody(req.body);
        const id: RpcId = requestIdOf(parsed);
        const presented = bearerToken(req.headers.authorization);
        const auth = presented ? await authenticateMcp(deps, presented, { oauth: true }) : undefined;
        if (!auth) {
          reply.header(
            "www-authenticate",
            presented ? 'Bearer realm="upbeat", error="invalid_token"' : 'Bearer realm="upbeat"',
          );
          const message = presented
            ? "Unauthorized: the API key is invalid or has been revoked"
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
            `Rate limit exceeded: at most ${MCP_PER_MINUTE} requests a minute per API key; retry in ${rate.retryAfterSeconds} s`,
            id,
            { retry_after_seconds: rate.retryAfterSeconds },
          );
        }
        await auth.recordUse();
        if (!parsed.ok)
          return sendRpcError(reply, 400, RPC.parseError, "Parse error: the body is not valid JSON", null);
        await serveMcp(deps, owner, req, reply, parsed.value);
      },
    );
  });
}
