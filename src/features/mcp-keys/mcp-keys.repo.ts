import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { installations, type McpScope, mcpKeys, workspaceCalendars } from "../../db/schema.ts";

export type McpKeyRow = typeof mcpKeys.$inferSelect;

/** The workspace a presented key opens, as the MCP endpoint needs it. */
export interface KeyOwner {
  keyId: number;
  teamId: string;
  teamName: string;
  lastUsedAt: Date | null;
  scopes: McpScope[];
  /** The admin who created the key (writes act as them); '' once their data was removed. */
  createdBy: string;
  /**
   * The workspace calendar's timezone as saved (null: no calendar), read with the key so a tool's "today" costs no
   * query of its own.
   */
  timezone: string | null;
}

export async function insertKey(
  ex: Executor,
  row: Pick<McpKeyRow, "teamId" | "name" | "keyHash" | "keyPrefix" | "createdBy" | "createdAt" | "scopes">,
): Promise<McpKeyRow> {
  const [inserted] = await ex.insert(mcpKeys).values(row).returning();
  return inserted!;
}

/** Every key of the workspace, revoked ones included, newest first. */
export async function selectKeys(ex: Executor, teamId: string): Promise<McpKeyRow[]> {
  return ex.select().from(mcpKeys).where(eq(mcpKeys.teamId, teamId)).orderBy(desc(mcpKeys.createdAt), desc(mcpKeys.id));
}

/** Revoking twice keeps the first revocation time. False when the workspace has no such key. */
export async function revokeKeyRow(ex: Executor, teamId: string, id: number, now: Date): Promise<boolean> {
  const updated = await ex
    .update(mcpKeys)
    .set({ revokedAt: sql`coalesce(${mcpKeys.revokedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(mcpKeys.teamId, teamId), eq(mcpKeys.id, id)))
    .returning({ id: mcpKeys.id });
  return updated.length > 0;
}

/** Revokes every key of the workspace (an uninstall); keys revoked before keep their time. */
export async function revokeTeamKeys(ex: Executor, teamId: string, now: Date): Promise<void> {
  await ex
    .update(mcpKeys)
    .set({ revokedAt: now })
    .where(and(eq(mcpKeys.teamId, teamId), isNull(mcpKeys.revokedAt)));
}

/**
 * A live key by its hash (unique index). Read on every request, never cached, so a revocation or an
 * uninstall takes effect at once on every instance.
 */
export async function findLiveKey(ex: Executor, keyHash: string): Promise<KeyOwner | undefined> {
  const [row] = await ex
    .select({
      keyId: mcpKeys.id,
      teamId: mcpKeys.teamId,
      teamName: installations.teamName,
      lastUsedAt: mcpKeys.lastUsedAt,
      scopes: mcpKeys.scopes,
      createdBy: mcpKeys.createdBy,
      timezone: workspaceCalendars.timezone,
    })
    .from(mcpKeys)
    .innerJoin(installations, eq(installations.teamId, mcpKeys.teamId))
    .leftJoin(workspaceCalendars, eq(workspaceCalendars.teamId, mcpKeys.teamId))
    .where(and(eq(mcpKeys.keyHash, keyHash), isNull(mcpKeys.revokedAt), isNull(installations.uninstalledAt)))
    .limit(1);
  return row;
}

/** Writes `last_used_at` only when it is unset or older than `staleBefore`; the condition holds across instances. */
export async function touchKey(ex: Executor, id: number, now: Date, staleBefore: Date): Promise<boolean> {
  const updated = await ex
    .update(mcpKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(mcpKeys.id, id), or(isNull(mcpKeys.lastUsedAt), lt(mcpKeys.lastUsedAt, staleBefore))))
    .returning({ id: mcpKeys.id });
  return updated.length > 0;
}
