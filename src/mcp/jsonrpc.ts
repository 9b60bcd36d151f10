import type { FastifyReply } from "fastify";

/** Codes from the spec's MCP error table, plus the JSON-RPC ones the endpoint answers itself. */
export const RPC = {
  unauthorized: -32001,
  serverError: -32000,
  parseError: -32700,
  internalError: -32603,
} as const;

export type RpcId = string | number | null;

export type ParsedBody = { ok: true; value: unknown } | { ok: false };

export function parseJsonBody(body: unknown): ParsedBody {
  if (typeof body !== "string") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

/** The id to echo in an error: a single request's own id; null for a batch, a notification or junk. */
export function requestIdOf(parsed: ParsedBody): RpcId {
  if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) {
    return null;
  }
  const id = (parsed.value as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

export function rpcErrorBody(code: number, message: string, id: RpcId, data?: Record<string, unknown>) {
  return { jsonrpc: "2.0" as const, error: { code, message, ...(data ? { data } : {}) }, id };
}

export function sendRpcError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  id: RpcId,
  data?: Record<string, unknown>,
): FastifyReply {
  return reply
    .status(status)
    .header("cache-control", "no-store")
    .type("application/json; charset=utf-8")
    .send(rpcErrorBody(code, message, id, data));
}
