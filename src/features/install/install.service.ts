import { upsertInstallation } from "../../chat/installations.repo.ts";
import type { Deps } from "../../deps.ts";
import { encryptSecret, randomToken, safeEqual, sha256Hex } from "../../lib/crypto.ts";
import { signToken, verifyToken } from "../../lib/signed-token.ts";
import { queueWelcome } from "../email/index.ts";
import { BOT_SCOPES } from "../manifest/index.ts";
import { ensureAdmin, queueMemberSync, refreshMember, SIGN_IN_LOOKUP_MS } from "../members/index.ts";
import { restartTiming } from "../schedules/index.ts";
import { claimNonce, issueLoginToken } from "../session/index.ts";
import { endWorkspaceAccess } from "./access.ts";

/** The one list of bot scopes, shared with the app manifest (see src/features/manifest/slack-app.ts). */
export { BOT_SCOPES };

export const STATE_TTL_SECONDS = 10 * 60;

/**
 * The cookie that binds a state to the browser that asked for it. A state alone would let anyone who starts an
 * install hand its callback link to someone else, who would then be signed in to the sender's workspace.
 */
export const BROWSER_COOKIE = "upbeat_install";
/** The callback's two paths: the cookie is sent to these only. */
export const CALLBACK_PATHS = ["/oauth/callback", "/chat/oauth_redirect"] as const;

export function redirectUri(deps: Pick<Deps, "config">): string {
  return `${deps.config.appUrl}/oauth/callback`;
}

/** The state carries only a hash of the browser's key: the key itself never leaves that browser's cookie jar. */
const browserHash = (browserKey: string) => sha256Hex(browserKey);

/** A new install: the URL of Slack's OAuth page, and the key for the cookie its state is bound to. */
export function startInstall(deps: Pick<Deps, "config" | "keys" | "clock">): { url: string; browserKey: string } {
  const browserKey = randomToken(32);
  return { url: installUrl(deps, browserKey), browserKey };
}

export function installUrl(deps: Pick<Deps, "config" | "keys" | "clock">, browserKey: string): string {
  refuseWithoutOAuth(deps);
  const state = signToken(deps.keys.oauthState, {
    iat: Math.floor(deps.clock.now().getTime() / 1000),
    browser: browserHash(browserKey),
  });
  const url = new URL(deps.config.chatOauthUrl);
  url.searchParams.set("client_id", deps.config.chatClientId);
  url.searchParams.set("scope", BOT_SCOPES.join(","));
  url.searchParams.set("redirect_uri", redirectUri(deps));
  url.searchParams.set("state", state);
  return url.toString();
}

export class InstallError extends Error {}

/**
 * With CHAT_BOT_TOKEN the client id and secret are placeholders: nothing may send them to Slack. The routes answer
 * before this is reached; this is the last guard.
 */
function refuseWithoutOAuth(deps: Pick<Deps, "config">): void {
  if (deps.config.chatBotToken !== undefined) {
    throw new InstallError("This Upbeat serves one workspace (CHAT_BOT_TOKEN): there is nothing to install.");
  }
}

/**
 * Checks signature, age, browser and single use of the state; throws InstallError with a message for the person.
 * The browser is checked before the state is spent, so a link opened elsewhere writes nothing at all.
 */
async function spendState(deps: Deps, state: string | undefined, browserKey: string | undefined): Promise<void> {
  const now = deps.clock.now();
  const v = verifyToken<{ browser?: unknown }>(deps.keys.oauthState, state, now.getTime(), STATE_TTL_SECONDS);
  if (!v.ok) {
    throw new InstallError(
      v.reason === "expired"
        ? "The install link expired (it works for 10 minutes). Please start the install again."
        : "The install request could not be verified. Please start the install again.",
    );
  }
  const bound = v.payload.browser;
  // Hashes of equal length, compared in constant time; no cookie (or one over any sane size) never matches.
  if (
    typeof bound !== "string" ||
    !browserKey ||
    browserKey.length > 256 ||
    !safeEqual(browserHash(browserKey), bound)
  ) {
    throw new InstallError(
      "This install was started in another browser (or this browser did not keep its cookie), so it was not " +
        "completed. Please start the install again in this browser.",
    );
  }
  const expiresAt = new Date((v.payload.iat + STATE_TTL_SECONDS + 120) * 1000);
  if (!(await claimNonce(deps.db, v.payload.nonce, "oauth", now, expiresAt))) {
    throw new InstallError("This install link was already used. Please start the install again.");
  }
}

/** What Slack granted: from OAuth's oauth.v2.access, or from auth.test on a configured bot token (CHAT_BOT_TOKEN). */
export interface Grant {
  teamId: string;
  teamName: string;
  botUserId: string;
  /** In plain text: it is encrypted here, never stored otherwise. */
  botToken: string;
  /** Comma-separated, as Slack lists them. */
  scopes: string;
  /** Who installed it through OAuth; none with a configured bot token, where Slack's admins and owners are admins. */
  installerUserId?: string;
}

/**
 * Stores the installation (bot token encrypted) as one transaction: a reinstall after an uninstall starts from no
 * access and resumes standups at their next time, the installer (if any) is an admin, the member sync is queued (it
 * makes Slack's admins and owners admins) and, with e-mail on, the installer's welcome. OAuth and the configured bot
 * token both come through here.
 */
export async function storeInstallation(deps: Deps, grant: Grant): Promise<{ reactivated: boolean }> {
  const { teamId, installerUserId } = grant;
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx) => {
    const { reactivated } = await upsertInstallation(
      tx,
      {
        teamId,
        teamName: grant.teamName,
        botUserId: grant.botUserId,
        botTokenEnc: encryptSecret(deps.keys.tokenEncryption, grant.botToken),
        scopes: grant.scopes,
        // The column names a person for OAuth installs; "" says no one installed it through Upbeat.
        installerUserId: installerUserId ?? "",
      },
      now,
    );
    if (reactivated) {
      // A reinstall starts from no access: the uninstall ended it already, and this also ends whatever slipped in
      // while that committed (a sign-in finishing at the same moment). Standups resume at their next time: nothing
      // missed while uninstalled is caught up. Re-authorising an installed workspace changes neither.
      await endWorkspaceAccess(tx, teamId, now);
      await restartTiming(tx, teamId, now);
    }
    if (installerUserId) await ensureAdmin(tx, teamId, installerUserId, now);
    await queueMemberSync(deps, tx, teamId, "install", now);
    if (installerUserId) {
      // Once per installation: a second OAuth or a re-authorisation finds the welcome claimed; a reinstall gets one.
      await queueWelcome(deps, tx, {
        teamId,
        userId: installerUserId,
        now,
        ...(reactivated ? { reinstalledAt: now } : {}),
      });
    }
    return { reactivated };
  });
  // Events from now on use the new token (and a reinstalled workspace's are no longer refused).
  deps.chat.forget(teamId);
  return result;
}

interface OAuthAccess {
  ok?: boolean;
  access_token?: string;
  scope?: string;
  bot_user_id?: string;
  team?: { id?: string; name?: string };
  authed_user?: { id?: string };
}

/**
 * Exchanges the code, stores the installation and its installer as admin, queues the member sync and (with e-mail on)
 * the welcome e-mail, then reads the installer's Slack profile (users.info). Returns the login token.
 */
export async function completeInstall(
  deps: Deps,
  query: { code?: string; state?: string; error?: string },
  browserKey: string | undefined,
): Promise<{ teamId: string; userId: string; loginToken: string }> {
  refuseWithoutOAuth(deps);
  if (query.error) {
    await spendState(deps, query.state, browserKey).catch(() => {});
    throw new InstallError(
      query.error === "access_denied"
        ? "The install was cancelled in Slack."
        : "Slack reported an error during the install.",
    );
  }
  await spendState(deps, query.state, browserKey);
  if (!query.code) throw new InstallError("Slack did not send an authorisation code. Please start the install again.");

  let access: OAuthAccess;
  try {
    access = (await deps.chat.anonymous().oauth.v2.access({
      client_id: deps.config.chatClientId,
      client_secret: deps.config.chatClientSecret,
      code: query.code,
      redirect_uri: redirectUri(deps),
    })) as OAuthAccess;
  } catch {
    throw new InstallError("Slack did not accept the authorisation. Please start the install again.");
  }
  const teamId = access.team?.id;
  const userId = access.authed_user?.id;
  if (!access.access_token || !teamId || !userId || !access.bot_user_id) {
    throw new InstallError("Slack's answer was incomplete. Please start the install again.");
  }
  await storeInstallation(deps, {
    teamId,
    teamName: access.team?.name ?? teamId,
    botUserId: access.bot_user_id,
    botToken: access.access_token,
    scopes: access.scope ?? "",
    installerUserId: userId,
  });
  // The installer's own profile now, so the dashboard they land on shows their name and e-mail; the sync brings
  // everyone else. A failure here changes nothing: the sync reads them too.
  await refreshMember(deps, teamId, userId, { deadlineMs: SIGN_IN_LOOKUP_MS });
  return { teamId, userId, loginToken: issueLoginToken(deps, teamId, userId) };
}
