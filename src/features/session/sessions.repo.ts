import { eq, lt, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { sessions, usedNonces } from "../../db/schema.ts";
import type { SessionUser } from "../../http/auth.ts";

/**
 * The session with its member's current role: role is read per request, so a change applies at once.
 * Runs on every dashboard API request, so members and installations are joined here in one statement.
 */
export async function findSessionUser(ex: Executor, idHash: string, now: Date): Promise<SessionUser | undefined> {
  const [row] = await rows<{
    team_id: string;
    user_id: string;
    team_name: string;
    role: string;
    expires_at: string | Date;
  }>(
    ex,
    sql`select s.team_id, s.user_id, i.team_name, m.role, s.expires_at
        from sessions s
        join members m on m.team_id = s.team_id and m.user_id = s.user_id and m.active
        join installations i on i.team_id = s.team_id and i.uninstalled_at is null
        where s.id_hash = ${idHash} and s.expires_at > ${now.toISOString()}`,
  );
  if (!row) return undefined;
  return {
    teamId: row.team_id,
    userId: row.user_id,
    teamName: row.team_name,
    role: row.role === "admin" ? "admin" : "member",
    expiresAt: new Date(row.expires_at),
  };
}

export async function insertSession(
  ex: Executor,
  row: { idHash: string; teamId: string; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await ex.insert(sessions).values(row);
}

export async function extendSession(ex: Executor, idHash: string, expiresAt: Date): Promise<void> {
  await ex.update(sessions).set({ expiresAt }).where(eq(sessions.idHash, idHash));
}

export async function deleteSession(ex: Executor, idHash: string): Promise<void> {
  await ex.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** Ends every session of the workspace (an uninstall). */
export async function deleteTeamSessions(ex: Executor, teamId: string): Promise<void> {
  await ex.delete(sessions).where(eq(sessions.teamId, teamId));
}

export async function deleteExpiredSessions(ex: Executor, now: Date): Promise<void> {
  await ex.delete(sessions).where(lt(sessions.expiresAt, now));
}

/** Records a single-use nonce; false when it was used before. */
export async function claimNonce(
  ex: Executor,
  nonce: string,
  kind: string,
  now: Date,
  expiresAt: Date,
): Promise<boolean> {
  const inserted = await ex
    .insert(usedNonces)
    .values({ nonce: `${kind}:${nonce}`, kind, usedAt: now, expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: usedNonces.nonce });
  return inserted.length > 0;
}

export async function pruneNonces(ex: Executor, now: Date): Promise<void> {
  await ex.delete(usedNonces).where(lt(usedNonces.expiresAt, now));
}
