import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { anyOf } from "../../db/arrays.ts";
import { type Executor, rows, type Tx } from "../../db/client.ts";
import { memberSyncs, members } from "../../db/schema.ts";

export type MemberSyncRow = typeof memberSyncs.$inferSelect;
export type SyncReason = NonNullable<MemberSyncRow["reason"]>;

export interface SyncCounts {
  listed: number;
  added: number;
  deactivated: number;
  reactivated: number;
}

export async function findSyncState(ex: Executor, teamId: string): Promise<MemberSyncRow | undefined> {
  const [row] = await ex.select().from(memberSyncs).where(eq(memberSyncs.teamId, teamId)).limit(1);
  return row;
}

/** The workspace's sync row, created when missing, locked for the rest of the transaction. */
export async function lockSyncState(tx: Tx, teamId: string): Promise<MemberSyncRow> {
  await tx.insert(memberSyncs).values({ teamId }).onConflictDoNothing();
  const [row] = await tx.select().from(memberSyncs).where(eq(memberSyncs.teamId, teamId)).for("update");
  return row!;
}

export async function setQueued(tx: Tx, teamId: string, reason: SyncReason, now: Date): Promise<void> {
  await tx.update(memberSyncs).set({ state: "queued", reason, queuedAt: now }).where(eq(memberSyncs.teamId, teamId));
}

export async function setDailyDate(tx: Tx, teamId: string, day: string): Promise<void> {
  await tx.update(memberSyncs).set({ dailyDate: day }).where(eq(memberSyncs.teamId, teamId));
}

export async function markSyncStarted(ex: Executor, teamId: string, now: Date): Promise<void> {
  await ex
    .insert(memberSyncs)
    .values({ teamId, state: "running", startedAt: now })
    .onConflictDoUpdate({ target: memberSyncs.teamId, set: { state: "running", startedAt: now } });
}

export async function markSyncFinished(
  ex: Executor,
  teamId: string,
  end: { now: Date; outcome: "ok" | "failed"; error: string | null; counts?: SyncCounts; retrying: boolean },
): Promise<void> {
  await ex
    .update(memberSyncs)
    .set({
      state: end.retrying ? "queued" : "idle",
      finishedAt: end.now,
      outcome: end.outcome,
      error: end.error,
      ...(end.counts ?? {}),
    })
    .where(eq(memberSyncs.teamId, teamId));
}

/** Installed workspaces whose daily resync of `day` (UTC, YYYY-MM-DD) is not claimed yet. */
export async function workspacesWithoutDailySync(ex: Executor, day: string): Promise<string[]> {
  const found = await rows<{ team_id: string }>(
    ex,
    sql`select i.team_id from installations i left join member_syncs s on s.team_id = i.team_id
        where i.uninstalled_at is null and (s.daily_date is null or s.daily_date < ${day})
        order by i.team_id`,
  );
  return found.map((r) => r.team_id);
}

/** Active members of the workspace not changed since `before` (candidates for "gone from Slack"). */
export async function activeMemberIdsUnchangedSince(ex: Executor, teamId: string, before: Date): Promise<string[]> {
  const found = await ex
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.teamId, teamId), eq(members.active, true), lt(members.updatedAt, before)));
  return found.map((r) => r.userId);
}

/**
 * Marks these members inactive, unless something (a team_join, a user_change, a slash command) touched them since
 * `before`: those are known to be current. Returns how many changed.
 */
export async function deactivateUnchanged(
  ex: Executor,
  teamId: string,
  userIds: string[],
  before: Date,
  now: Date,
): Promise<number> {
  if (userIds.length === 0) return 0;
  const changed = await ex
    .update(members)
    .set({ active: false, updatedAt: now })
    .where(
      and(
        eq(members.teamId, teamId),
        anyOf(members.userId, userIds),
        eq(members.active, true),
        or(lt(members.updatedAt, before), isNull(members.updatedAt)),
      ),
    )
    .returning({ userId: members.userId });
  return changed.length;
}
