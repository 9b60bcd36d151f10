import { hmacSha256, safeEqual } from "../lib/crypto.ts";

export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Slack's v0 request signature: HMAC-SHA256 of `v0:<timestamp>:<raw body>`. The timestamp must be
 * within five minutes in both directions (Bolt's own check lets future timestamps through).
 */
export function verifySlackSignature(
  signingSecret: string,
  rawBody: Buffer,
  headers: { signature?: string; timestamp?: string },
  nowMs: number,
): SignatureCheck {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp) return { ok: false, reason: "missing signature headers" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "malformed timestamp" };
  const skew = Math.abs(nowMs / 1000 - Number(timestamp));
  if (skew > SIGNATURE_WINDOW_SECONDS) return { ok: false, reason: "stale or future timestamp" };
  // Over the bytes as they came: Slack signs them, not a decoding of them.
  const expected = `v0=${hmacSha256(signingSecret, `v0:${timestamp}:`, rawBody).toString("hex")}`;
  if (!safeEqual(expected, signature)) return { ok: false, reason: "signature mismatch" };
  return { ok: true };
}
