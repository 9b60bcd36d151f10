import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { App } from "../../http/server.ts";

/**
 * Browser-based MCP clients (claude.ai in a browser, the MCP inspector) call discovery, registration, the token
 * endpoints and /mcp from their own origin. None of these use cookies, so any origin may call them (no
 * credentials): what protects them is the bearer token or the PKCE verifier, not the origin.
 */
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "www-authenticate, mcp-session-id, mcp-protocol-version",
};

const PREFLIGHT_HEADERS = {
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id",
  "access-control-max-age": "86400",
};

export function withCors(reply: FastifyReply): FastifyReply {
  return reply.headers(CORS_HEADERS);
}

/** An OPTIONS route answering the CORS preflight of `path` for `methods`. */
export function preflight(app: App, path: string, methods: string): void {
  app.options(
    path,
    {
      schema: {
        summary: `CORS preflight of ${path}`,
        tags: [path.startsWith("/mcp") ? "mcp" : "oauth"],
        response: { 204: z.undefined().describe("Any origin may call, without credentials") },
      },
    },
    async (_req, reply) =>
      withCors(reply)
        .headers({ ...PREFLIGHT_HEADERS, "access-control-allow-methods": `${methods}, OPTIONS` })
        .status(204)
        .send(),
  );
}
