import { randomBytes } from "node:crypto";
import { hmacSha256, randomBase62 } from "../../lib/crypto.ts";

/**
 * The Standard Webhooks symmetric scheme: a `whsec_` secret (base64 of 32 random bytes), and a `v1,` signature
 * that is the base64 HMAC-SHA256 of `msg_id.timestamp.body`, keyed with the secret's decoded bytes.
 */

export const SECRET_PREFIX = "whsec_";

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** Message ids never contain a `.`, so `id.timestamp.body` cannot be read two ways. */
export function generateMessageId(): string {
  return `msg_${randomBase62(27)}`;
}

export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  return `v1,${hmacSha256(key, `${messageId}.${timestamp}.${body}`).toString("base64")}`;
}
