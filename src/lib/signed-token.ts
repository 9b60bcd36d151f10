import { hmacSha256, randomToken, safeEqual } from "./crypto.ts";

/**
 * `base64url(JSON payload) + "." + base64url(HMAC-SHA256)`: the login token of DESIGN.md §3
 * and the OAuth `state`. Each payload carries `iat` (seconds) and a `nonce` recorded on use.
 */
export interface SignedPayload {
  iat: number;
  nonce: string;
  [key: string]: unknown;
}

export function signToken(key: Buffer, payload: Omit<SignedPayload, "nonce"> & { nonce?: string }): string {
  const body = Buffer.from(JSON.stringify({ ...payload, nonce: payload.nonce ?? randomToken(16) })).toString(
    "base64url",
  );
  return `${body}.${hmacSha256(key, body).toString("base64url")}`;
}

export type VerifyResult<T> =
  | { ok: true; payload: T & SignedPayload }
  | { ok: false; reason: "malformed" | "forged" | "expired" };

export function verifyToken<T>(
  key: Buffer,
  token: string | undefined,
  nowMs: number,
  ttlSeconds: number,
): VerifyResult<T> {
  if (!token || token.length > 4096) return { ok: false, reason: "malformed" };
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) return { ok: false, reason: "malformed" };
  const body = token.slice(0, dot);
  const sig = token.slice(dot + 1);
  if (!safeEqual(hmacSha256(key, body).toString("base64url"), sig)) return { ok: false, reason: "forged" };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const p = payload as SignedPayload;
  if (typeof p !== "object" || p === null || typeof p.iat !== "number" || typeof p.nonce !== "string") {
    return { ok: false, reason: "malformed" };
  }
  const ageSeconds = nowMs / 1000 - p.iat;
  // A token from the future (clock skew beyond a minute) is as suspect as an old one.
  if (ageSeconds > ttlSeconds || ageSeconds < -60) return { ok: false, reason: "expired" };
  return { ok: true, payload: p as T & SignedPayload };
}
