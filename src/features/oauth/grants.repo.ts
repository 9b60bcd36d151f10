import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type McpScope, members, type OAuthClientKind, oauthClients, oauthGrants } from "../../db/schema.ts";
import { personNameSql } from "../../lib/person-names.ts";

/** A live grant with what the list shows of its client and its person. */
export interface GrantRow {
  id: number;
  clientId: string;
  clientName: string | null;
  clientUri: string | null;
  redirectUris: string[] | null;
  kind: OAuthClientKind | null;
  scopes: McpScope[];
  userId: string;
  userName: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * The workspace's live (not revoked) grants, newest first; only `userId`'s when given. The client and the member are
 * left-joined: a grant outlives neither's row in practice, but the list must not lose a grant if one is gone.
 */
export async function selectLiveGrants(ex: Executor, teamId: string, userId?: string): Promise<GrantRow[]> {
  return ex
    .select({
      id: oauthGrants.id,
      clientId: oauthGrants.clientId,
      clientName: oauthClients.clientName,
      clientUri: oauthClients.clientUri,
      redirectUris: oauthClients.redirectUris,
      kind: oauthClients.kind,
      scopes: oauthGrants.scopes,
      userId: oauthGrants.userId,
      // The members table is not aliased here, so the shared name rule reads it by its own name.
      userName: sql<string>`${sql.raw(personNameSql("members"))}`,
      createdAt: oauthGrants.createdAt,
      lastUsedAt: oauthGrants.lastUsedAt,
    })
    .from(oauthGrants)
    .leftJoin(oauthClients, eq(oauthClients.clientId, oauthGrants.clientId))
    .leftJoin(members, and(eq(members.teamId, oauthGrants.teamId), eq(members.userId, oauthGrants.userId)))
    .where(
      and(
        eq(oauthGrants.teamId, teamId),
        isNull(oauthGrants.revokedAt),
        userId === undefined ? undefined : eq(oauthGrants.userId, userId),
      ),
    )
    .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id));
}

/**
 * Revokes a live grant of the workspace (only `userId`'s when given). False when there is no such live grant, so a
 * second revocation, another person's grant for a member, and another workspace's grant all look the same.
 */
export async function revokeGrantRow(
  ex: Executor,
  teamId: string,
  id: number,
  now: Date,
  userId?: string,
): Promise<boolean> {
  const updated = await ex
    .update(oauthGrants)
    .set({ revokedAt: now })
    .where(
      and(
        eq(oauthGrants.teamId, teamId),
        eq(oauthGrants.id, id),
        isNull(oauthGrants.revokedAt),
        userId === undefined ? undefined : eq(oauthGrants.userId, userId),
      ),
    )
    .returning({ id: oauthGrants.id });
  return updated.length > 0;
}
