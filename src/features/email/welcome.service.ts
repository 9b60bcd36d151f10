import { InstallationGoneError } from "../../chat/chat-clients.ts";
import type { Tx } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { claimSend } from "./email.repo.ts";

/** The key of the first installation's welcome: a second OAuth or a re-authorisation finds it claimed. */
export const WELCOME_KEY = "welcome";

/** A reinstall after an uninstall is a new installation, with a welcome of its own under its own key. */
export function welcomeKey(reinstalledAt?: Date): string {
  return reinstalledAt ? `${WELCOME_KEY}@${reinstalledAt.getTime()}` : WELCOME_KEY;
}

/**
 * Called by the install in its own transaction: claims the installation's welcome to the installer and queues it,
 * so it exists exactly when the installation does. Nothing without EMAIL_API_KEY; once per installation: the first
 * install claims `welcome`, a reinstall after an uninstall (`reinstalledAt`, decided under the installation's row
 * lock) claims a key of its own, and a second OAuth or a re-authorisation while installed finds its key claimed.
 */
export async function queueWelcome(
  deps: Pick<Deps, "config" | "queue">,
  tx: Tx,
  w: { teamId: string; userId: string; now: Date; reinstalledAt?: Date },
): Promise<boolean> {
  if (!deps.config.emailApiKey) return false;
  const key = welcomeKey(w.reinstalledAt);
  const claimed = await claimSend(tx, {
    teamId: w.teamId,
    key,
    kind: "welcome",
    userId: w.userId,
    now: w.now,
  });
  if (claimed) await deps.queue.enqueue("email.send", { teamId: w.teamId, key }, { tx });
  return claimed;
}

interface SlackUserInfo {
  user?: { id?: string; real_name?: string; profile?: { email?: string; real_name?: string; display_name?: string } };
}

/**
 * The installer as Slack shows them (users.info, with users:read.email), or undefined when Slack does not know
 * them. A failure that may pass (rate limit, network) throws, and the job retries.
 */
export async function installerFromSlack(
  deps: Pick<Deps, "chat">,
  teamId: string,
  userId: string,
): Promise<{ userId: string; email: string; realName: string; displayName: string } | undefined> {
  let info: SlackUserInfo;
  try {
    const client = await deps.chat.forTeam(teamId, "read");
    info = (await client.users.info({ user: userId })) as SlackUserInfo;
  } catch (err) {
    if (err instanceof InstallationGoneError) return undefined;
    if ((err as { code?: string })?.code === "slack_webapi_platform_error") return undefined;
    throw new Error("Slack users.info failed");
  }
  const u = info.user;
  if (!u?.id) return undefined;
  return {
    userId,
    email: u.profile?.email ?? "",
    realName: u.real_name ?? u.profile?.real_name ?? "",
    displayName: u.profile?.display_name ?? "",
  };
}
