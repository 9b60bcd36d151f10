import { and, eq, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client.ts";
import { type EmailKind, type EmailState, emailDigestWeeks, emailPreferences, emailSends } from "../../db/schema.ts";

/** The SQL of the e-mail feature; every statement takes the workspace id. */

export type EmailSendRow = typeof emailSends.$inferSelect;

/** How long digest claims (and the weeks claimed) are kept; welcome claims are kept for good. */
export const DIGEST_RETENTION_DAYS = 90;

/** Claims one e-mail under its key; false when it was claimed before (by this or another instance). */
export async function claimSend(
  ex: Executor,
  row: { teamId: string; key: string; kind: EmailKind; userId: string; weekStart?: string; now: Date },
): Promise<boolean> {
  const inserted = await ex
    .insert(emailSends)
    .values({
      teamId: row.teamId,
      key: row.key,
      kind: row.kind,
      userId: row.userId,
      weekStart: row.weekStart ?? null,
      state: "queued",
      createdAt: row.now,
      updatedAt: row.now,
    })
    .onConflictDoNothing()
    .returning({ key: emailSends.key });
  return inserted.length > 0;
}

export async function findSend(ex: Executor, teamId: string, key: string): Promise<EmailSendRow | undefined> {
  const [row] = await ex
    .select()
    .from(emailSends)
    .where(and(eq(emailSends.teamId, teamId), eq(emailSends.key, key)))
    .limit(1);
  return row;
}

/** Ends a queued claim; a claim already ended stays as it was (a late retry changes nothing). */
export async function finishSend(
  ex: Executor,
  teamId: string,
  key: string,
  state: Exclude<EmailState, "queued">,
  now: Date,
  providerId?: string | null,
): Promise<void> {
  await ex
    .update(emailSends)
    .set({ state, providerId: providerId ?? null, updatedAt: now })
    .where(and(eq(emailSends.teamId, teamId), eq(emailSends.key, key), eq(emailSends.state, "queued")));
}

/** One more attempt at the provider, counted in one statement (two workers never lose a count). */
export async function countAttempt(ex: Executor, teamId: string, key: string, now: Date): Promise<void> {
  await ex
    .update(emailSends)
    .set({ attempts: sql`${emailSends.attempts} + 1`, updatedAt: now })
    .where(and(eq(emailSends.teamId, teamId), eq(emailSends.key, key)));
}

/** Whether the member wants the weekly digest: on unless they switched it off. */
export async function digestWanted(ex: Executor, teamId: string, userId: string): Promise<boolean> {
  const [row] = await ex
    .select({ digest: emailPreferences.digest })
    .from(emailPreferences)
    .where(and(eq(emailPreferences.teamId, teamId), eq(emailPreferences.userId, userId)))
    .limit(1);
  return row?.digest ?? true;
}

/** One statement, so two clicks or two tabs at once simply both land. */
export async function setDigestWanted(
  ex: Executor,
  teamId: string,
  userId: string,
  digest: boolean,
  now: Date,
): Promise<void> {
  await ex
    .insert(emailPreferences)
    .values({ teamId, userId, digest, updatedAt: now })
    .onConflictDoUpdate({
      target: [emailPreferences.teamId, emailPreferences.userId],
      set: { digest, updatedAt: now },
    });
}

/** The installed workspaces with the latest week their digest was claimed for (null: never). */
export function installedWorkspaces(ex: Executor) {
  return rows<{ team_id: string; last_week: string | null }>(
    ex,
    sql`select i.team_id,
               (select max(w.week_start)::text from email_digest_weeks w where w.team_id = i.team_id) as last_week
        from installations i
        where i.uninstalled_at is null
        order by i.team_id`,
  );
}

/** Claims a workspace's digest of one week; false when it was claimed already. */
export async function claimDigestWeek(ex: Executor, teamId: string, weekStart: string, now: Date): Promise<boolean> {
  const inserted = await ex
    .insert(emailDigestWeeks)
    .values({ teamId, weekStart, recipients: 0, claimedAt: now })
    .onConflictDoNothing()
    .returning({ teamId: emailDigestWeeks.teamId });
  return inserted.length > 0;
}

/**
 * Claims the digest for every recipient in one statement: active admins with an e-mail address who have not
 * switched it off. Returns the user ids whose claim is new (a recipient claimed before is left out).
 */
export async function claimDigestRecipients(
  ex: Executor,
  teamId: string,
  weekStart: string,
  now: Date,
): Promise<string[]> {
  const at = now.toISOString();
  const claimed = await rows<{ user_id: string }>(
    ex,
    sql`insert into email_sends (team_id, key, kind, user_id, week_start, state, created_at, updated_at)
        select m.team_id, 'digest:' || ${weekStart} || ':' || m.user_id, 'digest', m.user_id, ${weekStart}::date,
               'queued', ${at}::timestamptz, ${at}::timestamptz
        from members m
        left join email_preferences p on p.team_id = m.team_id and p.user_id = m.user_id
        where m.team_id = ${teamId} and m.active and m.role = 'admin' and m.email <> '' and coalesce(p.digest, true)
        order by m.user_id
        on conflict do nothing
        returning user_id`,
  );
  await ex
    .update(emailDigestWeeks)
    .set({ recipients: claimed.length })
    .where(and(eq(emailDigestWeeks.teamId, teamId), eq(emailDigestWeeks.weekStart, weekStart)));
  return claimed.map((r) => r.user_id);
}

/** Digest claims older than the retention, and the weeks claimed before it; welcome claims are never pruned. */
export async function pruneDigests(ex: Executor, teamId: string, now: Date): Promise<void> {
  const before = new Date(now.getTime() - DIGEST_RETENTION_DAYS * 86_400_000);
  await ex.execute(
    sql`delete from email_sends where team_id = ${teamId} and kind = 'digest' and created_at < ${before.toISOString()}`,
  );
  await ex.execute(
    sql`delete from email_digest_weeks where team_id = ${teamId} and claimed_at < ${before.toISOString()}`,
  );
}
