import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import {
  installations,
  type McpScope,
  members,
  type OAuthTokenKind,
  oauthClients,
  oauthGrants,
  oauthRequests,
  oauthTokens,
  workspaceCalendars,
} from "../../db/schema.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { ACCESS_PREFIX, ACCESS_TTL_SECONDS, newSecret, REFRESH_PREFIX, REFRESH_TTL_MS } from "./oauth.model.ts";

export type RequestRow = typeof oauthRequests.$inferSelect;
export type GrantRow = typeof oauthGrants.$inferSelect;
export type TokenRow = typeof oauthTokens.$inferSelect;

export async function insertRequest(ex: Executor, row: typeof oauthRequests.$inferInsert): Promise<void> {
  await ex.insert(oauthRequests).values(row);
}

/** A consent request with its client (the client row always exists: it was resolved before the request was made). */
export async function findRequest(ex: Executor, idHash: string) {
  const [row] = await ex
    .select({ request: oauthRequests, client: oauthClients })
    .from(oauthRequests)
    .innerJoin(oauthClients, eq(oauthClients.clientId, oauthRequests.clientId))
    .where(eq(oauthRequests.idHash, idHash))
    .limit(1);
  return row;
}

/** Marks an open, unexpired request decided; undefined when it was not (already decided, expired or unknown). */
export async function decideRequest(ex: Executor, idHash: string, now: Date): Promise<RequestRow | undefined> {
  const [row] = await ex
    .update(oauthRequests)
    .set({ decidedAt: now })
    .where(and(eq(oauthRequests.idHash, idHash), isNull(oauthRequests.decidedAt), gt(oauthRequests.expiresAt, now)))
    .returning();
  return row;
}

export async function insertGrant(ex: Executor, row: typeof oauthGrants.$inferInsert): Promise<GrantRow> {
  const [inserted] = await ex.insert(oauthGrants).values(row).returning();
  return inserted!;
}

export async function insertToken(ex: Executor, row: typeof oauthTokens.$inferInsert): Promise<void> {
  await ex.insert(oauthTokens).values(row);
}

/** The client was authorised: it is no longer an unused registration (retention keeps it). */
export async function touchClient(ex: Executor, clientId: string, now: Date): Promise<void> {
  await ex.update(oauthClients).set({ lastUsedAt: now }).where(eq(oauthClients.clientId, clientId));
}

/** A token of a kind by its hash, with its grant. */
export async function findTokenWithGrant(ex: Executor, tokenHash: string, kind?: OAuthTokenKind) {
  const [row] = await ex
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(
      kind
        ? and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, kind))
        : eq(oauthTokens.tokenHash, tokenHash),
    )
    .limit(1);
  return row;
}

/**
 * A refresh token with its grant and whether the grant's member is still active, in one query: a member who left or
 * was deactivated refreshes nothing, as their dashboard session ends.
 */
export async function findRefreshWithGrant(ex: Executor, tokenHash: string) {
  const [row] = await ex
    .select({ token: oauthTokens, grant: oauthGrants, memberActive: members.active })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .leftJoin(members, and(eq(members.teamId, oauthGrants.teamId), eq(members.userId, oauthGrants.userId)))
    .where(and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, "refresh")))
    .limit(1);
  return row;
}

/** Claims a code or refresh token for its one use; false when it was used already (a replay). */
export async function claimToken(ex: Executor, tokenHash: string, now: Date): Promise<boolean> {
  const updated = await ex
    .update(oauthTokens)
    .set({ usedAt: now })
    .where(and(eq(oauthTokens.tokenHash, tokenHash), isNull(oauthTokens.usedAt)))
    .returning({ h: oauthTokens.tokenHash });
  return updated.length > 0;
}

/**
 * Revokes a grant (keeping the first revocation time) and deletes its tokens: every token of it stops working at
 * once (tokens are checked against their grant anyway).
 */
export async function revokeGrant(ex: Executor, grantId: number, now: Date): Promise<void> {
  await ex
    .update(oauthGrants)
    .set({ revokedAt: sql`coalesce(${oauthGrants.revokedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(oauthGrants.id, grantId));
  await ex.delete(oauthTokens).where(eq(oauthTokens.grantId, grantId));
}

export async function narrowGrant(ex: Executor, grantId: number, scopes: McpScope[]): Promise<void> {
  await ex.update(oauthGrants).set({ scopes }).where(eq(oauthGrants.id, grantId));
}

export interface IssuedPair {
  access_token: string;
  refresh_token: string;
}

/** A new access and refresh token for a grant; only their hashes are stored. */
export async function issuePair(ex: Executor, grant: Pick<GrantRow, "id" | "teamId">, now: Date): Promise<IssuedPair> {
  const access = newSecret(ACCESS_PREFIX);
  const refresh = newSecret(REFRESH_PREFIX);
  const accessExpires = new Date(now.getTime() + ACCESS_TTL_SECONDS * 1000);
  const refreshExpires = new Date(now.getTime() + REFRESH_TTL_MS);
  // Always exactly two rows (never a list that grows), in one statement.
  await ex.execute(sql`
    insert into oauth_tokens (token_hash, kind, grant_id, team_id, created_at, expires_at)
    values (${sha256Hex(access)}, 'access', ${grant.id}, ${grant.teamId}, ${now.toISOString()}::timestamptz,
            ${accessExpires.toISOString()}::timestamptz),
           (${sha256Hex(refresh)}, 'refresh', ${grant.id}, ${grant.teamId}, ${now.toISOString()}::timestamptz,
            ${refreshExpires.toISOString()}::timestamptz)`);
  return { access_token: access, refresh_token: refresh };
}

/**
 * What /mcp needs of an access token, in one indexed query (the token's primary key, the grant's, the member's, the
 * team's). The member must still be active, as for a dashboard session, and their role is read here, per request.
 */
export async function findLiveAccess(ex: Executor, tokenHash: string, now: Date) {
  const [row] = await ex
    .select({
      grantId: oauthGrants.id,
      teamId: oauthGrants.teamId,
      teamName: installations.teamName,
      userId: oauthGrants.userId,
      role: members.role,
      clientId: oauthGrants.clientId,
      clientName: oauthClients.clientName,
      scopes: oauthGrants.scopes,
      resource: oauthGrants.resource,
      lastUsedAt: oauthGrants.lastUsedAt,
      // Read with the token so a tool's "today" costs no query of its own (null: no calendar saved).
      timezone: workspaceCalendars.timezone,
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .innerJoin(
      members,
      and(eq(members.teamId, oauthGrants.teamId), eq(members.userId, oauthGrants.userId), eq(members.active, true)),
    )
    .innerJoin(installations, eq(installations.teamId, oauthGrants.teamId))
    .leftJoin(oauthClients, eq(oauthClients.clientId, oauthGrants.clientId))
    .leftJoin(workspaceCalendars, eq(workspaceCalendars.teamId, oauthGrants.teamId))
    .where(
      and(
        eq(oauthTokens.tokenHash, tokenHash),
        eq(oauthTokens.kind, "access"),
        gt(oauthTokens.expiresAt, now),
        isNull(oauthGrants.revokedAt),
        isNull(installations.uninstalledAt),
      ),
    )
    .limit(1);
  return row;
}

/** Writes the grant's `last_used_at` only when unset or older than `staleBefore` (across instances). */
export async function touchGrant(ex: Executor, grantId: number, now: Date, staleBefore: Date): Promise<void> {
  await ex
    .update(oauthGrants)
    .set({ lastUsedAt: now })
    .where(
      and(eq(oauthGrants.id, grantId), or(isNull(oauthGrants.lastUsedAt), lt(oauthGrants.lastUsedAt, staleBefore))),
    );
}
