import { and, arrayContains, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor, Tx } from "../../db/client.ts";
import { installations, webhookDeliveries, webhookEndpoints } from "../../db/schema.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DisableReason = "gone" | "failing";

/**
 * Locks the workspace's installation row for the rest of the transaction: creations in one workspace take turns,
 * so the cap holds however many arrive at once. False when the workspace is not installed.
 */
export async function lockWorkspace(tx: Tx, teamId: string): Promise<boolean> {
  const locked = await tx
    .select({ teamId: installations.teamId })
    .from(installations)
    .where(eq(installations.teamId, teamId))
    .for("update");
  return locked.length > 0;
}

export async function countEndpoints(ex: Executor, teamId: string): Promise<number> {
  const [row] = await ex.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.teamId, teamId));
  return row?.n ?? 0;
}

export async function insertEndpoint(
  ex: Executor,
  row: Pick<EndpointRow, "teamId" | "url" | "events" | "secretEnc" | "createdBy" | "createdAt">,
): Promise<EndpointRow> {
  const [inserted] = await ex.insert(webhookEndpoints).values(row).returning();
  return inserted!;
}

/** Newest first; a workspace has at most MAX_ENDPOINTS. */
export async function selectEndpoints(ex: Executor, teamId: string): Promise<EndpointRow[]> {
  return ex
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.teamId, teamId))
    .orderBy(desc(webhookEndpoints.id));
}

export async function findEndpoint(ex: Executor, teamId: string, id: number): Promise<EndpointRow | undefined> {
  const [row] = await ex
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id)));
  return row;
}

/** The endpoint and its deliveries; queued jobs of those deliveries then find nothing to do. */
export async function deleteEndpoint(tx: Tx, teamId: string, id: number): Promise<boolean> {
  const gone = await tx
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  if (gone.length === 0) return false;
  await tx
    .delete(webhookDeliveries)
    .where(and(eq(webhookDeliveries.teamId, teamId), eq(webhookDeliveries.endpointId, id)));
  return true;
}

/** Active endpoints of the workspace subscribed to this event type. */
export async function subscribedEndpoints(ex: Executor, teamId: string, type: string): Promise<number[]> {
  const found = await ex
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.teamId, teamId),
        isNull(webhookEndpoints.disabledAt),
        arrayContains(webhookEndpoints.events, [type]),
      ),
    )
    .orderBy(webhookEndpoints.id);
  return found.map((r) => r.id);
}

/** A 2xx: the endpoint works, whatever failed before. */
export async function recordSuccess(ex: Executor, teamId: string, id: number, now: Date): Promise<void> {
  await ex
    .update(webhookEndpoints)
    .set({ lastSuccessAt: now, failingSince: null, lastFailureAt: null })
    .where(and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id)));
}

/**
 * A failed attempt; returns since when the endpoint has failed without a success and without a silence longer than
 * `streakGapMs` (this attempt, if it starts the streak). One statement: parallel attempts cannot lose an update.
 */
export async function recordFailure(
  ex: Executor,
  teamId: string,
  id: number,
  now: Date,
  streakGapMs: number,
): Promise<Date | undefined> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const streakBroken = sql`${at} - ${webhookEndpoints.lastFailureAt} > ${`${Math.round(streakGapMs / 1000)} seconds`}::interval`;
  const [row] = await ex
    .update(webhookEndpoints)
    .set({
      failingSince: sql`case when ${webhookEndpoints.failingSince} is null or ${webhookEndpoints.lastFailureAt} is null or ${streakBroken} then ${at} else ${webhookEndpoints.failingSince} end`,
      lastFailureAt: sql`greatest(${webhookEndpoints.lastFailureAt}, ${at})`,
    })
    .where(and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id)))
    .returning({ failingSince: webhookEndpoints.failingSince });
  return row?.failingSince ?? undefined;
}

/**
 * Disables the endpoint once: true only for the caller whose update did it (the admins' notice goes with that
 * one). Its pending deliveries end in the same transaction.
 */
export async function disableEndpoint(
  tx: Tx,
  teamId: string,
  id: number,
  reason: DisableReason,
  now: Date,
): Promise<boolean> {
  const done = await tx
    .update(webhookEndpoints)
    .set({ disabledAt: now, disabledReason: reason })
    .where(and(eq(webhookEndpoints.teamId, teamId), eq(webhookEndpoints.id, id), isNull(webhookEndpoints.disabledAt)))
    .returning({ id: webhookEndpoints.id });
  if (done.length === 0) return false;
  await tx
    .update(webhookDeliveries)
    .set({
      status: "failed",
      nextAttemptAt: null,
      payload: null,
      finishedAt: now,
      lastError: sql`coalesce(${webhookDeliveries.lastError} || '; ', '') || 'endpoint disabled'`,
    })
    .where(
      and(
        eq(webhookDeliveries.teamId, teamId),
        eq(webhookDeliveries.endpointId, id),
        eq(webhookDeliveries.status, "pending"),
      ),
    );
  return true;
}
