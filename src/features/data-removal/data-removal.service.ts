import { sql } from "drizzle-orm";
import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import { rows } from "../../db/client.ts";
import type { Deps, WebClient } from "../../deps.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { erasePerson, eraseWorkspace, type PersonErasure } from "./erase.ts";

/** How long the deletion waits for Slack to confirm the token revocation. */
const REVOKE_TIMEOUT_MS = 5_000;

export interface WorkspaceDeletion {
  deleted: true;
  rows: number;
  jobs: number;
  token_revoked: boolean;
}

/**
 * Deletes every row of the workspace in one transaction, under a lock on its installation row (writers that add
 * rows for a workspace take a share lock on that row and find it gone), then revokes the bot token read before.
 * The data goes whatever Slack answers: a failed revoke is logged, not retried.
 */
export async function deleteWorkspace(deps: Deps, teamId: string, confirm: string): Promise<WorkspaceDeletion> {
  let client: WebClient | undefined;
  try {
    client = await deps.chat.forTeam(teamId, "read");
  } catch (err) {
    // Uninstalled: Slack already revoked the token.
    if (!(err instanceof InstallationGoneError)) throw err;
  }
  const counted = await deps.db.transaction(async (tx) => {
    const [inst] = await rows<{ team_name: string }>(
      tx,
      sql`select team_name from installations where team_id = ${teamId} for update`,
    );
    if (!inst) throw notFound("No such workspace");
    if (confirm.trim() !== inst.team_name) {
      throw badRequest("confirm must be the workspace name, typed exactly as shown (letter case counts)");
    }
    return eraseWorkspace(tx, teamId);
  });
  deps.chat.forget(teamId);
  let revoked = false;
  if (client) {
    try {
      // The data is already gone: the admin is not kept waiting on a slow Slack (the answer says it was not revoked).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        client.auth.revoke({}),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error("auth.revoke timed out")), REVOKE_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      revoked = true;
    } catch (err) {
      deps.log.warn(
        { team_id: teamId, err: slackErrorCode(err) ?? (err instanceof Error ? err.message : String(err)) },
        "auth.revoke failed after the workspace's data was deleted",
      );
    }
  }
  deps.log.info({ team_id: teamId, rows: counted.rows, jobs: counted.jobs }, "workspace data deleted");
  return { deleted: true, rows: counted.rows, jobs: counted.jobs, token_revoked: revoked };
}

export interface MemberDataDeletion extends PersonErasure {
  user_id: string;
}

/**
 * Erases a member removed from Slack from every place the personal-data registry lists (their rows go, references
 * to them on the workspace's rows are blanked, mentions of them in others' text rewritten, jobs naming them
 * dropped), in one transaction. Refused (409) while they are active in Slack: a member sync or their next message
 * would bring them back.
 */
export async function deleteMemberData(deps: Deps, teamId: string, userId: string): Promise<MemberDataDeletion> {
  return deps.db.transaction(async (tx) => {
    const [member] = await rows<{ active: boolean }>(
      tx,
      sql`select active from members where team_id = ${teamId} and user_id = ${userId} for update`,
    );
    if (!member) throw notFound("No such member in this workspace");
    if (member.active) {
      throw conflict(
        "This member is still active in Slack; their data can be deleted once they are removed from Slack",
      );
    }
    const erased = await erasePerson(tx, teamId, userId);
    deps.log.info({ team_id: teamId, ...erased }, "member data deleted");
    return { user_id: userId, ...erased };
  });
}
