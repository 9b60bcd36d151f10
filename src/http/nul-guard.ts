import type { FastifyInstance } from "fastify";
import { findNul } from "../lib/nul.ts";
import { badRequest } from "./errors.ts";

/**
 * One check for every route: a NUL in a path parameter, a query parameter or a JSON body is a 400 naming the field,
 * before any handler can pass it to the database (which cannot store it: a 500 before). Raw bodies are left to
 * their routes: Slack's (verified, then stripped of NUL: Slack sends what people type) and /mcp's (the SDK parses
 * it; tool arguments are checked by the tool kit and answered with a tool error).
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (req) => {
    const field =
      findNul(namedParams(req.params)) ??
      findNul(req.query) ??
      (isParsedJson(req.body) ? findNul(req.body) : undefined);
    if (field === undefined) return;
    // statusCode too: routes with an error handler of their own (the feed's page, /mcp's JSON-RPC) read that.
    throw Object.assign(badRequest(`${field || "body"} must not contain NUL bytes`, "nul_byte"), { statusCode: 400 });
  });
}

/** A wildcard's value is named `path`, as /openapi.json names it. */
function namedParams(params: unknown): unknown {
  if (params === null || typeof params !== "object" || !("*" in params)) return params;
  const { "*": path, ...rest } = params as Record<string, unknown>;
  return { ...rest, path };
}

/**
 * An object or array the JSON parser made of a body. A Buffer or a raw string is a route's own to read; a body
 * that is a bare JSON string fails every route's object schema anyway.
 */
function isParsedJson(body: unknown): boolean {
  return body !== null && typeof body === "object" && !Buffer.isBuffer(body);
}
