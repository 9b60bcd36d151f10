import { sql } from "drizzle-orm";
import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import { type Executor, rows } from "../../db/client.ts";
import type { Deps, WebClient } from "../../deps.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";

/**
 * Every table of this database with a team_id column, read from the live schema: a table added later is covered
 * without a change here.
 */
export async function teamTables(ex: Executor): Promise<string[]> {
  const found = await rows<{ table_name: string }>(
    ex,
    sql`select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and c.column_name = 'team_id' and t.table_type = 'BASE TABLE'
        order by c.table_name`,
  );
  return found.map((r) => r.table_name);
}

/** Tables of the workspace with a column naming one person, and that column. */
export async function personColumns(ex: Executor): Promise<{ table: string; column: string }[]> {
  const found = await rows<{ table_name: string; column_name: string }>(
    ex,
    sql`select c.table_name, c.column_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
          and c.column_name in ('user_id', 'from_user', 'to_user')
          and exists (select 1 from information_schema.columns k
                      where k.table_schema = c.table_schema and k.table_name = c.table_name and k.column_name = 'team_id')
        order by c.table_name, c.column_name`,
  );
  return found.map((r) => ({ table: r.table_name, column: r.column_name }));
}

async function deleteCount(ex: Executor, query: ReturnType<typeof sql>): Promise<number> {
  const res = (await ex.execute(query)) as unknown as { rowCount?: number | null; affectedRows?: number };
  return Number(res.rowCount ?? res.affectedRows ?? 0);
}

/** Queued (not yet running) pg-boss jobs whose payload names the workspace; 0 when the queue's schema is absent. */
async function dropQueuedJobs(ex: Executor, teamId: string): Promise<number> {
  const [present] = await rows<{ ok: boolean }>(ex, sql`select to_regclass('pgboss.job') is not null as ok`);
  if (!present?.ok) return 0;
  return deleteCount(
    ex,
    sql`delete from pgboss.job where data->>'teamId' = ${teamId} and state in ('created', 'retry')`,
  );
}

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
    let total = 0;
    for (const table of await teamTables(tx)) {
      total += await deleteCount(tx, sql`delete from ${sql.identifier(table)} where team_id = ${teamId}`);
    }
    const jobs = await dropQueuedJobs(tx, teamId);
    return { rows: total, jobs };
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

export interface MemberDataDeletion {
  user_id: string;
  deleted: Record<string, number>;
}

/**
 * Deletes every row naming a member removed from Slack: their member row, answers, participation, profile dates,
 * time off, kudos they gave or received, sessions, e-mail settings and sends, celebration asks. Refused (409) while
 * they are active in Slack: a member sync or their next message would bring them back.
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
    const deleted: Record<string, number> = {};
    for (const { table, column } of await personColumns(tx)) {
      const n = await deleteCount(
        tx,
        sql`delete from ${sql.identifier(table)} where team_id = ${teamId} and ${sql.identifier(column)} = ${userId}`,
      );
      deleted[table] = (deleted[table] ?? 0) + n;
    }
    deps.log.info({ team_id: teamId, deleted }, "member data deleted");
    return { user_id: userId, deleted };
  });
}
