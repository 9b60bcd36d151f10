import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { installations } from "../db/schema.ts";

/** The installation store: one row per workspace with its encrypted bot token (Bolt's `authorize` and the Web API clients read it). */
export type Installation = typeof installations.$inferSelect;

export async function findInstallation(ex: Executor, teamId: string): Promise<Installation | undefined> {
  const [row] = await ex.select().from(installations).where(eq(installations.teamId, teamId)).limit(1);
  return row;
}

export async function findActiveInstallation(ex: Executor, teamId: string): Promise<Installation | undefined> {
  const [row] = await ex
    .select()
    .from(installations)
    .where(and(eq(installations.teamId, teamId), isNull(installations.uninstalledAt)))
    .limit(1);
  return row;
}

/**
 * Insert or refresh the installation; reinstalling clears `uninstalled_at` and a refused token's mark
 * (`access_ended_at` stays). The row is
 * locked first, so `reactivated` says for certain whether this brought back an uninstalled workspace (as opposed to
 * a first install, or re-authorising one still installed).
 */
export async function upsertInstallation(
  ex: Executor,
  row: Omit<
    Installation,
    | "installedAt"
    | "updatedAt"
    | "uninstalledAt"
    | "accessEndedAt"
    | "tokenRefusedAt"
    | "tokenRefusedError"
    | "authorizedAt"
  >,
  now: Date,
): Promise<{ reactivated: boolean }> {
  const [before] = await ex
    .select({ uninstalledAt: installations.uninstalledAt })
    .from(installations)
    .where(eq(installations.teamId, row.teamId))
    .for("update");
  await ex
    .insert(installations)
    .values({
      ...row,
      installedAt: now,
      updatedAt: now,
      authorizedAt: now,
      uninstalledAt: null,
      tokenRefusedAt: null,
      tokenRefusedError: null,
    })
    .onConflictDoUpdate({
      target: installations.teamId,
      set: {
        teamName: row.teamName,
        botUserId: row.botUserId,
        botTokenEnc: row.botTokenEnc,
        scopes: row.scopes,
        installerUserId: row.installerUserId,
        updatedAt: now,
        authorizedAt: now,
        uninstalledAt: null,
        // A new token: whatever Slack refused before no longer applies.
        tokenRefusedAt: null,
        tokenRefusedError: null,
      },
    });
  return { reactivated: Boolean(before?.uninstalledAt) };
}

/**
 * Marks the workspace uninstalled and records that its access ended now; false when it already was. The caller
 * ends the access itself in the same transaction: this row update comes first and holds the row lock until then.
 */
export async function markUninstalled(
  ex: Executor,
  teamId: string,
  now: Date,
  opts: { eventAt?: Date } = {},
): Promise<boolean> {
  // An uninstall event from before the current token was stored (a delivery processed late) is about the old one.
  const notStale = opts.eventAt
    ? or(isNull(installations.authorizedAt), lte(installations.authorizedAt, opts.eventAt))
    : undefined;
  const res = await ex
    .update(installations)
    .set({ uninstalledAt: now, accessEndedAt: now, updatedAt: now })
    .where(and(eq(installations.teamId, teamId), isNull(installations.uninstalledAt), notStale))
    .returning({ teamId: installations.teamId });
  return res.length > 0;
}

/**
 * Marks the workspace as needing reinstall because Slack refused its token: uninstalled (so every check that stops
 * work and access for an uninstalled workspace applies) with the refusal recorded. False when it was already
 * uninstalled: only the first refusal marks it. The caller ends the access in the same transaction (as after
 * markUninstalled).
 */
export async function markTokenRefused(ex: Executor, teamId: string, code: string, now: Date): Promise<boolean> {
  const res = await ex
    .update(installations)
    .set({ uninstalledAt: now, accessEndedAt: now, updatedAt: now, tokenRefusedAt: now, tokenRefusedError: code })
    .where(and(eq(installations.teamId, teamId), isNull(installations.uninstalledAt)))
    .returning({ teamId: installations.teamId });
  return res.length > 0;
}

/** The installed workspaces (not uninstalled, token not refused), for the daily token check. */
export async function installedTeamIds(ex: Executor): Promise<string[]> {
  const res = await ex
    .select({ teamId: installations.teamId })
    .from(installations)
    .where(isNull(installations.uninstalledAt))
    .orderBy(installations.teamId);
  return res.map((r) => r.teamId);
}
