import { and, asc, desc, eq, inArray, lt, lte, ne, sql } from "drizzle-orm";
import { pgArray } from "../../db/arrays.ts";
import { type Executor, rows, type Tx } from "../../db/client.ts";
import { installations, webhookDeliveries, webhookEndpoints } from "../../db/schema.ts";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface NewDelivery {
  teamId: string;
  endpointId: number;
  messageId: string;
  type: string;
  payload: string;
  createdAt: Date;
}

/** Pending and due at once. One per (endpoint, message): a message seen twice is not delivered twice. */
export async function insertDeliveries(tx: Tx, list: NewDelivery[]): Promise<{ id: number; teamId: string }[]> {
  if (list.length === 0) return [];
  const column = <T>(pick: (d: NewDelivery) => T) => list.map(pick);
  // One array per column: the statement's parameters do not grow with the number of endpoints.
  const created = await rows<{ id: number | string; team_id: string }>(
    tx,
    sql`insert into webhook_deliveries (team_id, endpoint_id, message_id, type, payload, status, attempts,
                                        next_attempt_at, created_at)
        select d.team_id, d.endpoint_id, d.message_id, d.type, d.payload, 'pending', 0, d.created_at, d.created_at
        from unnest(${pgArray(
          "text",
          column((d) => d.teamId),
        )}, ${pgArray(
          "int4",
          column((d) => d.endpointId),
        )},
                    ${pgArray(
                      "text",
                      column((d) => d.messageId),
                    )}, ${pgArray(
                      "text",
                      column((d) => d.type),
                    )},
                    ${pgArray(
                      "text",
                      column((d) => d.payload),
                    )}, ${pgArray(
                      "timestamptz",
                      column((d) => d.createdAt),
                    )})
          with ordinality as d(team_id, endpoint_id, message_id, type, payload, created_at, n)
        order by d.n
        on conflict do nothing
        returning id, team_id`,
  );
  return created.map((c) => ({ id: Number(c.id), teamId: c.team_id }));
}

/** What an attempt needs, taken with the claim. */
export interface ClaimedAttempt {
  id: number;
  teamId: string;
  endpointId: number;
  messageId: string;
  type: string;
  payload: string | null;
  /** The number of this attempt (1 for the first). */
  attempt: number;
  url: string;
  secretEnc: string;
  uninstalled: boolean;
}

/**
 * Claims the next attempt of a delivery that is due: one statement, so of two workers (a retry job and the
 * sweeper's, or two instances) only one gets it. While it runs, `next_attempt_at` is the lease: if the worker
 * dies, the attempt counts as made and the sweeper picks the delivery up again when the lease ends.
 */
export async function claimAttempt(
  ex: Executor,
  teamId: string,
  id: number,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedAttempt | undefined> {
  const [row] = await ex
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: leaseUntil, lastAttemptAt: now })
    .from(webhookEndpoints)
    .innerJoin(installations, eq(installations.teamId, webhookEndpoints.teamId))
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.teamId, teamId),
        eq(webhookDeliveries.status, "pending"),
        lte(webhookDeliveries.nextAttemptAt, now),
        eq(webhookEndpoints.id, webhookDeliveries.endpointId),
        eq(webhookEndpoints.teamId, webhookDeliveries.teamId),
      ),
    )
    .returning({
      id: webhookDeliveries.id,
      teamId: webhookDeliveries.teamId,
      endpointId: webhookDeliveries.endpointId,
      messageId: webhookDeliveries.messageId,
      type: webhookDeliveries.type,
      payload: webhookDeliveries.payload,
      attempt: webhookDeliveries.attempts,
      url: webhookEndpoints.url,
      secretEnc: webhookEndpoints.secretEnc,
      uninstalledAt: installations.uninstalledAt,
    });
  if (!row) return undefined;
  const { uninstalledAt, ...rest } = row;
  return { ...rest, uninstalled: uninstalledAt !== null };
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
}

/** Records the claimed attempt's result; a no-op when the delivery was ended meanwhile (endpoint disabled). */
export async function finishDelivery(
  ex: Executor,
  claimed: Pick<ClaimedAttempt, "id" | "attempt">,
  status: "delivered" | "failed",
  result: AttemptResult,
  now: Date,
): Promise<boolean> {
  const done = await ex
    .update(webhookDeliveries)
    .set({
      status,
      nextAttemptAt: null,
      payload: null,
      finishedAt: now,
      lastStatusCode: result.statusCode,
      lastError: result.error,
    })
    .where(
      and(
        eq(webhookDeliveries.id, claimed.id),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.attempts, claimed.attempt),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return done.length > 0;
}

export async function scheduleRetry(
  ex: Executor,
  claimed: Pick<ClaimedAttempt, "id" | "attempt">,
  result: AttemptResult,
  nextAttemptAt: Date,
): Promise<boolean> {
  const done = await ex
    .update(webhookDeliveries)
    .set({ nextAttemptAt, lastStatusCode: result.statusCode, lastError: result.error })
    .where(
      and(
        eq(webhookDeliveries.id, claimed.id),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.attempts, claimed.attempt),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return done.length > 0;
}

/** The deliveries log of one endpoint, newest first. */
export async function selectDeliveries(
  ex: Executor,
  teamId: string,
  endpointId: number,
  limit: number,
): Promise<DeliveryRow[]> {
  return ex
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.teamId, teamId), eq(webhookDeliveries.endpointId, endpointId)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function findDelivery(ex: Executor, teamId: string, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await ex
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.teamId, teamId), eq(webhookDeliveries.id, id)));
  return row;
}

/**
 * Pending deliveries due since at least `dueBefore` (a retry whose job was lost or ran early, an attempt whose
 * worker died): their due time moves to `now`, so the next sweep leaves them to the job it enqueues now, and two
 * instances sweeping at once never take the same row.
 */
export async function takeOverdue(
  ex: Executor,
  dueBefore: Date,
  now: Date,
  limit: number,
): Promise<{ id: number; teamId: string; attempts: number }[]> {
  const overdue = ex
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, dueBefore)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return ex
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now })
    .where(and(inArray(webhookDeliveries.id, overdue), eq(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id, teamId: webhookDeliveries.teamId, attempts: webhookDeliveries.attempts });
}

/**
 * Retention: finished deliveries created before `before` go, and of the finished ones each endpoint keeps only its
 * newest `keep` (what its log shows). Pending ones stay, however old, until they finish (at most about 3 days of
 * retries, and the sweeper takes over lost ones), so a scheduled retry is never lost.
 */
export async function pruneDeliveries(ex: Executor, before: Date, keep: number): Promise<number> {
  const old = await ex
    .delete(webhookDeliveries)
    .where(and(lt(webhookDeliveries.createdAt, before), ne(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id });
  const ranked = ex
    .select({
      id: webhookDeliveries.id,
      rank: sql<number>`row_number() over (partition by ${webhookDeliveries.endpointId} order by ${webhookDeliveries.createdAt} desc, ${webhookDeliveries.id} desc)`.as(
        "rank",
      ),
    })
    .from(webhookDeliveries)
    .as("ranked");
  const beyond = ex.select({ id: ranked.id }).from(ranked).where(sql`${ranked.rank} > ${keep}`);
  const extra = await ex
    .delete(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.id, beyond), ne(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id });
  return old.length + extra.length;
}
