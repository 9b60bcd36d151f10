import { findInstallation } from "../../chat/installations.repo.ts";
import type { Deps } from "../../deps.ts";
import { signToken, verifyToken } from "../../lib/signed-token.ts";
import { claimNonce } from "./sessions.repo.ts";

export const LOGIN_TOKEN_TTL_SECONDS = 5 * 60;

/** DESIGN.md §3: base64url(JSON {team_id, user_id, iat, nonce}) + "." + base64url(HMAC-SHA256), 5 minutes, single use. */
export function issueLoginToken(deps: Pick<Deps, "keys" | "clock">, teamId: string, userId: string): string {
  return signToken(deps.keys.loginToken, {
    team_id: teamId,
    user_id: userId,
    iat: Math.floor(deps.clock.now().getTime() / 1000),
  });
}

export function loginUrl(deps: Pick<Deps, "keys" | "clock" | "config">, teamId: string, userId: string): string {
  return `${deps.config.appUrl}/dashboard/login?t=${encodeURIComponent(issueLoginToken(deps, teamId, userId))}`;
}

export type RedeemResult =
  | { ok: true; teamId: string; userId: string }
  | { ok: false; reason: "malformed" | "forged" | "expired" | "used" | "uninstalled" | "revoked" }
  /** Uninstalled because Slack refused the workspace's token: the page names the workspace and says to reinstall. */
  | { ok: false; reason: "token_refused"; teamName: string };

/**
 * Verifies and spends the token: the nonce is recorded, so the same token never opens a second session. The
 * workspace must be installed, and the token issued after its last uninstall (`iat` is in whole seconds, so a
 * token of the uninstall's own second is refused too): a link from before an uninstall never opens the new one.
 */
export async function redeemLoginToken(
  deps: Pick<Deps, "keys" | "clock" | "db">,
  token: string | undefined,
): Promise<RedeemResult> {
  const now = deps.clock.now();
  const v = verifyToken<{ team_id: unknown; user_id: unknown }>(
    deps.keys.loginToken,
    token,
    now.getTime(),
    LOGIN_TOKEN_TTL_SECONDS,
  );
  if (!v.ok) return v;
  const { team_id, user_id, nonce, iat } = v.payload;
  if (typeof team_id !== "string" || typeof user_id !== "string") return { ok: false, reason: "malformed" };
  const installation = await findInstallation(deps.db, team_id);
  if (installation?.uninstalledAt && installation.tokenRefusedAt)
    return { ok: false, reason: "token_refused", teamName: installation.teamName };
  if (!installation || installation.uninstalledAt) return { ok: false, reason: "uninstalled" };
  if (installation.accessEndedAt && iat * 1000 <= installation.accessEndedAt.getTime()) {
    return { ok: false, reason: "revoked" };
  }
  const expiresAt = new Date((iat + LOGIN_TOKEN_TTL_SECONDS + 120) * 1000);
  if (!(await claimNonce(deps.db, nonce, "login", now, expiresAt))) return { ok: false, reason: "used" };
  return { ok: true, teamId: team_id, userId: user_id };
}
