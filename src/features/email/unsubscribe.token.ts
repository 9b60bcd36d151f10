import type { Deps } from "../../deps.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { signToken, verifyToken } from "../../lib/signed-token.ts";

/**
 * The one-click unsubscribe link of every e-mail: `base64url(JSON {team_id, user_id, iat, nonce}).HMAC`, signed with
 * its own key derived from SESSION_SECRET_KEY (deps.keys.emailUnsubscribe), so no other token of the service passes
 * as one. It can be used any number of times (switching off twice is switching off once) for a year.
 */
export const UNSUBSCRIBE_TTL_SECONDS = 365 * 86_400;

export interface UnsubscribeTarget {
  teamId: string;
  userId: string;
}

/**
 * The link for one e-mail. Signed as of the moment the e-mail was claimed and with a nonce taken from its key, so
 * every attempt at sending the same e-mail carries the same link (the provider's idempotency needs the same body).
 */
export function unsubscribeUrl(
  deps: Pick<Deps, "config" | "keys">,
  target: UnsubscribeTarget & { emailKey: string; issuedAt: Date },
): string {
  const token = signToken(deps.keys.emailUnsubscribe, {
    iat: Math.floor(target.issuedAt.getTime() / 1000),
    nonce: sha256Hex(`${target.teamId}:${target.emailKey}`).slice(0, 22),
    team_id: target.teamId,
    user_id: target.userId,
  });
  return `${deps.config.appUrl}/email/unsubscribe?t=${encodeURIComponent(token)}`;
}

/** The member a link names, or undefined for anything not signed by this service (or over a year old). */
export function readUnsubscribeToken(
  deps: Pick<Deps, "keys" | "clock">,
  token: string | undefined,
): UnsubscribeTarget | undefined {
  const v = verifyToken<{ team_id?: unknown; user_id?: unknown }>(
    deps.keys.emailUnsubscribe,
    token,
    deps.clock.now().getTime(),
    UNSUBSCRIBE_TTL_SECONDS,
  );
  if (!v.ok) return undefined;
  const { team_id, user_id } = v.payload;
  if (typeof team_id !== "string" || typeof user_id !== "string" || !team_id || !user_id) return undefined;
  return { teamId: team_id, userId: user_id };
}
