import { z } from "zod";

/** Shapes of /mcp for validation-free documentation: the SDK reads and answers the JSON-RPC itself. */

const rpcId = z.union([z.string(), z.number(), z.null()]);

export const rpcError = z
  .object({
    jsonrpc: z.literal("2.0"),
    error: z.object({
      code: z
        .number()
        .int()
        .describe("-32001 unauthorized, -32700 parse error, -32000 rate limit or method, -32603 internal"),
      message: z.string(),
      data: z.record(z.string(), z.unknown()).optional(),
    }),
    id: rpcId,
  })
  .meta({ id: "JsonRpcError" });

const rpcResult = z
  .looseObject({ jsonrpc: z.literal("2.0"), result: z.unknown(), id: rpcId })
  .describe("initialize, tools/list, tools/call (content: [{type: text, text: <JSON>}]) or ping result");

/**
 * The body is taken as raw text (the key is checked before the body is judged), so the schema validates
 * nothing; its JSON Schema, given as metadata, tells clients what to send.
 */
export const rpcRequestDoc = z.unknown().meta({
  description: "A JSON-RPC 2.0 request: initialize, tools/list, tools/call, ping",
  type: "object",
  required: ["jsonrpc", "method"],
  properties: {
    jsonrpc: { const: "2.0" },
    method: { type: "string", examples: ["tools/call"] },
    params: { type: "object" },
    id: { type: ["string", "number", "null"] },
  },
});

export const mcpInfoBody = z
  .object({
    name: z.string(),
    version: z.string(),
    transport: z.literal("http"),
    endpoint: z.string(),
    auth: z.string(),
    docs: z.string(),
    tools: z.array(z.string()),
  })
  .meta({ id: "McpInfo" });

export const mcpPostResponses = {
  200: rpcResult.or(z.array(rpcResult)),
  202: z.undefined().describe("A notification was accepted"),
  400: rpcError.describe("Not JSON"),
  401: rpcError.describe("Missing or invalid key (-32001)"),
  413: rpcError.describe("Body over 1 MB"),
  429: rpcError.describe("More than 120 requests a minute with this key"),
};
export const methodNotAllowedResponse = { 405: rpcError.describe("No SSE stream or session on this stateless server") };
