import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { PACKAGE_VERSION } from "../../http/server.ts";
import type { Outbound } from "../../lib/outbound.ts";
import { type AddressPolicy, checkUrl, resolveTarget } from "./address-policy.ts";

/** The whole attempt (resolving, connecting, sending, the answer's headers) gets this long. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Of the answer's body, at most this much is read (and then dropped): only the status counts. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const USER_AGENT = `Upbeat-Webhooks/${PACKAGE_VERSION}`;

export interface AttemptRequest {
  url: string;
  messageId: string;
  /** Unix seconds of this attempt (webhook-timestamp). */
  timestamp: number;
  signature: string;
  body: string;
}

export type AttemptOutcome =
  /** A 2xx answer. */
  | { kind: "delivered"; status: number }
  /** Any other answer: 3xx (redirects are not followed), 4xx, 5xx. */
  | { kind: "rejected"; status: number; error: string }
  /** No answer: the address was refused, the name did not resolve, the connection failed or timed out. */
  | { kind: "failed"; error: string; refused?: boolean };

/** Connects to the address that was checked, whatever the name resolves to by now: no second lookup. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? "";
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset by the endpoint";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "endpoint unreachable";
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL"))
    return `TLS handshake failed (${code})`;
  if (code === "HPE_HEADER_OVERFLOW" || code.startsWith("HPE_")) return `invalid HTTP answer (${code})`;
  return code ? `request failed (${code})` : "request failed";
}

function answerError(status: number): string {
  if (status >= 300 && status < 400) return `redirect (${status}) not followed: point the endpoint at the final URL`;
  if (status === 410) return "410 Gone: the endpoint asked for no more deliveries";
  return `answered ${status}`;
}

/**
 * One delivery attempt, per the Standard Webhooks rules: POST the signed body, 2xx is delivered, anything else is
 * not (redirects are never followed). The URL and every address its host has are checked first, at every
 * attempt, and the connection goes to the checked address, so a DNS answer that changed since (rebinding) cannot
 * lead inside. TLS still verifies the certificate for the host name, and Host and SNI stay the host name.
 */
export async function attempt(
  req: AttemptRequest,
  ctx: { outbound: Outbound; policy: AddressPolicy; timeoutMs?: number },
): Promise<AttemptOutcome> {
  const timeoutMs = ctx.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const started = Date.now();
  const checked = checkUrl(req.url, ctx.policy);
  if (!checked.ok) return { kind: "failed", error: `refused: ${checked.error}`, refused: true };
  const resolved = await resolveTarget(checked.target, ctx.outbound, ctx.policy, timeoutMs);
  if (!resolved.ok) {
    const error = resolved.refused ? `refused: ${resolved.error}` : resolved.error;
    return { kind: "failed", error, refused: resolved.refused };
  }
  const target = resolved.addresses[0]!;
  const remaining = Math.max(1, timeoutMs - (Date.now() - started));
  const lib = checked.url.protocol === "https:" ? https : http;
  const body = Buffer.from(req.body, "utf8");

  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    let status: number | undefined;
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const byStatus = (code: number): AttemptOutcome =>
      code >= 200 && code < 300
        ? { kind: "delivered", status: code }
        : { kind: "rejected", status: code, error: answerError(code) };
    const request = lib.request(checked.url, {
      method: "POST",
      agent: false,
      lookup: pinnedLookup(target.address, target.family),
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        "user-agent": USER_AGENT,
        "webhook-id": req.messageId,
        "webhook-timestamp": String(req.timestamp),
        "webhook-signature": req.signature,
      },
    });
    const timer = setTimeout(() => {
      // Headers in time decide the outcome; a body still trickling in after them does not matter.
      if (status !== undefined) settle(byStatus(status));
      else settle({ kind: "failed", error: `timed out after ${Math.round(timeoutMs / 1000)} s` });
      request.destroy();
    }, remaining);
    request.on("response", (res) => {
      status = res.statusCode ?? 0;
      let received = 0;
      res.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received >= MAX_RESPONSE_BYTES) {
          settle(byStatus(status!));
          res.destroy();
        }
      });
      res.on("end", () => settle(byStatus(status!)));
      res.on("error", () => settle(byStatus(status!)));
      res.on("close", () => settle(byStatus(status!)));
    });
    request.on("error", (err) =>
      settle(status !== undefined ? byStatus(status) : { kind: "failed", error: describeError(err) }),
    );
    request.end(body);
  });
}
