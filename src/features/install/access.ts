import { markTokenRefused, markUninstalled } from "../../chat/installations.repo.ts";
import type { Executor } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { queueReinstallEmails } from "../email/index.ts";
import { deleteFeedToken } from "../feed/index.ts";
import { revokeTeamKeys } from "../mcp-keys/index.ts";
import { deleteTeamSessions } from "../session/index.ts";

/**
 * Every way into the workspace from outside Slack ends: dashboard sessions are deleted, MCP keys revoked (they stay
 * listed as revoked), the public feed token deleted. Login tokens issued before are refused through the
 * installation's `access_ended_at`. The data (members, standups, answers, settings) is kept.
 */
export async function endWorkspaceAccess(ex: Executor, teamId: string, now: Date): Promise<void> {
  await deleteTeamSessions(ex, teamId);
  await revokeTeamKeys(ex, teamId, now);
  await deleteFeedToken(ex, teamId);
}

/**
 * Slack's `app_uninstalled`, or `tokens_revoked` for the bot token: the workspace is marked uninstalled and its
 * access ends in the same transaction, so no instance sees one without the other. Jobs still queued for it end
 * quietly (they find no active installation). False when it was already uninstalled.
 */
export async function uninstallWorkspace(
  deps: Pick<Deps, "db" | "clock" | "chat">,
  teamId: string,
  opts: { eventAt?: Date } = {},
): Promise<boolean> {
  const now = deps.clock.now();
  const done = await deps.db.transaction(async (tx) => {
    if (!(await markUninstalled(tx, teamId, now, opts))) return false;
    await endWorkspaceAccess(tx, teamId, now);
    return true;
  });
  deps.chat.forget(teamId);
  return done;
}

/**
 * Slack refused the workspace's token (invalid_auth, account_inactive, token_revoked, token_expired) on any call:
 * as an uninstall (work stops, access ends, the data stays), with the refusal recorded for the sign-in page, and
 * one e-mail to each admin when e-mail is on, all in one transaction. Only the first refusal marks it (false after);
 * a reinstall clears the mark.
 */
export async function markNeedsReinstall(
  deps: Pick<Deps, "db" | "clock" | "chat" | "config" | "queue">,
  teamId: string,
  code: string,
): Promise<boolean> {
  const now = deps.clock.now();
  const marked = await deps.db.transaction(async (tx) => {
    if (!(await markTokenRefused(tx, teamId, code, now))) return false;
    await endWorkspaceAccess(tx, teamId, now);
    await queueReinstallEmails(deps, tx, teamId, now);
    return true;
  });
  deps.chat.forget(teamId);
  return marked;
}
