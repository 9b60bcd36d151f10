import { and, eq, lt, sql } from "drizzle-orm";
import { postKeySql } from "../../chat/post-keys.ts";
import { type Executor, rows } from "../../db/client.ts";
import { type CelebrationKind, celebrationPosts, celebrationSettings } from "../../db/schema.ts";
import { personNameSql } from "../../lib/person-names.ts";
import type { PersonDates } from "./celebrations.dates.ts";

/** The SQL of Celebrations; every statement takes the workspace id. Profiles are read here, never written. */

export type SettingsRow = typeof celebrationSettings.$inferSelect;

/** How long the claims of daily posts are kept. */
export const POST_CLAIM_RETENTION_DAYS = 400;
/** A member is asked for their dates at most this often. */
export const ASK_INTERVAL_DAYS = 30;

/** Serialises changes of one workspace's settings until the transaction ends (the row may not exist yet). */
export async function lockSettings(ex: Executor, teamId: string): Promise<void> {
  await ex.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`upbeat.celebration-settings:${teamId}`}, 0))`);
}

export async function selectSettings(ex: Executor, teamId: string): Promise<SettingsRow | undefined> {
  const [row] = await ex.select().from(celebrationSettings).where(eq(celebrationSettings.teamId, teamId)).limit(1);
  return row;
}

export async function saveSettings(ex: Executor, row: Omit<SettingsRow, "updatedAt">, now: Date): Promise<SettingsRow> {
  const { teamId: _team, ...rest } = row;
  const [saved] = await ex
    .insert(celebrationSettings)
    .values({ ...row, updatedAt: now })
    .onConflictDoUpdate({ target: celebrationSettings.teamId, set: { ...rest, updatedAt: now } })
    .returning();
  return saved!;
}

/** Installed workspaces with a Celebrations channel, and which kinds they post. */
export async function postingWorkspaces(ex: Executor): Promise<
  {
    team_id: string;
    channel_id: string;
    post_time: string;
    birthdays: boolean;
    anniversaries: boolean;
    updated_at: string;
  }[]
> {
  return rows(
    ex,
    sql`select s.team_id, s.channel_id, s.post_time, s.birthdays, s.anniversaries, s.updated_at::text as updated_at
        from celebration_settings s join installations i on i.team_id = s.team_id
        where i.uninstalled_at is null and s.channel_id is not null and (s.birthdays or s.anniversaries)
        order by s.team_id`,
  );
}

/** The kinds already claimed for a posting day. */
export async function claimedKinds(ex: Executor, teamId: string, postDate: string): Promise<Set<CelebrationKind>> {
  const found = await ex
    .select({ kind: celebrationPosts.kind })
    .from(celebrationPosts)
    .where(and(eq(celebrationPosts.teamId, teamId), eq(celebrationPosts.postDate, postDate)));
  return new Set(found.map((r) => r.kind));
}

/** Claims the post of one kind on one day; false when it was claimed already (by this or another instance). */
export async function claimPost(
  ex: Executor,
  teamId: string,
  kind: CelebrationKind,
  postDate: string,
  userIds: string[],
  now: Date,
): Promise<boolean> {
  const won = await ex
    .insert(celebrationPosts)
    .values({ teamId, kind, postDate, userIds, claimedAt: now })
    .onConflictDoNothing()
    .returning({ teamId: celebrationPosts.teamId });
  return won.length > 0;
}

export async function selectPostClaim(ex: Executor, teamId: string, kind: CelebrationKind, postDate: string) {
  const [row] = await ex
    .select()
    .from(celebrationPosts)
    .where(
      and(
        eq(celebrationPosts.teamId, teamId),
        eq(celebrationPosts.kind, kind),
        eq(celebrationPosts.postDate, postDate),
      ),
    )
    .limit(1);
  return row;
}

export async function prunePostClaims(ex: Executor, teamId: string, now: Date): Promise<void> {
  const before = new Date(now.getTime() - POST_CLAIM_RETENTION_DAYS * 86_400_000);
  await ex
    .delete(celebrationPosts)
    .where(and(eq(celebrationPosts.teamId, teamId), lt(celebrationPosts.claimedAt, before)));
}

/** Active members who want to be celebrated, with their dates (null when unknown) and display names. */
export async function celebratedPeople(ex: Executor, teamId: string): Promise<PersonDates[]> {
  const found = await rows<{
    user_id: string;
    name: string;
    birth_month: number | null;
    birth_day: number | null;
    start_date: string | null;
  }>(
    ex,
    sql`select m.user_id, ${sql.raw(personNameSql("m"))} as name,
               p.birth_month, p.birth_day, p.start_date::text as start_date
        from members m join profiles p on p.team_id = m.team_id and p.user_id = m.user_id
        where m.team_id = ${teamId} and m.active and p.celebrate
          and (p.birth_month is not null or p.start_date is not null)
        order by m.user_id`,
  );
  return found.map((r) => ({
    userId: r.user_id,
    name: r.name,
    birthMonth: r.birth_month === null ? null : Number(r.birth_month),
    birthDay: r.birth_day === null ? null : Number(r.birth_day),
    startDate: r.start_date,
  }));
}

/**
 * Active members still missing a birthday or a start date (and not opted out of celebrations) who were not asked in
 * the last ASK_INTERVAL_DAYS.
 */
export async function membersToAsk(ex: Executor, teamId: string, now: Date): Promise<string[]> {
  const since = new Date(now.getTime() - ASK_INTERVAL_DAYS * 86_400_000);
  const found = await rows<{ user_id: string }>(
    ex,
    sql`select m.user_id from members m
        left join profiles p on p.team_id = m.team_id and p.user_id = m.user_id
        left join celebration_asks a on a.team_id = m.team_id and a.user_id = m.user_id
        where m.team_id = ${teamId} and m.active
          and (p.user_id is null or (p.celebrate and (p.birth_month is null or p.start_date is null)))
          and (a.asked_at is null or a.asked_at <= ${since.toISOString()})
        order by m.user_id`,
  );
  return found.map((r) => r.user_id);
}

/**
 * Claims the ask of every member who is missing dates and was not asked within ASK_INTERVAL_DAYS, in one statement
 * (a parallel request or another instance claims nobody twice). Returns the members claimed now.
 */
export async function claimAsks(ex: Executor, teamId: string, now: Date): Promise<string[]> {
  const since = new Date(now.getTime() - ASK_INTERVAL_DAYS * 86_400_000).toISOString();
  const claimed = await rows<{ user_id: string }>(
    ex,
    sql`insert into celebration_asks (team_id, user_id, asked_at)
        select m.team_id, m.user_id, ${now.toISOString()}::timestamptz from members m
        left join profiles p on p.team_id = m.team_id and p.user_id = m.user_id
        where m.team_id = ${teamId} and m.active
          and (p.user_id is null or (p.celebrate and (p.birth_month is null or p.start_date is null)))
        on conflict (team_id, user_id) do update set asked_at = excluded.asked_at
          where celebration_asks.asked_at <= ${since}::timestamptz
        returning user_id`,
  );
  return claimed.map((r) => r.user_id);
}

/**
 * The claimed posts between two posting days, each with whom it names and what became of its message (the
 * chat_posts claim under the post's key: `sent` once Slack took it; null while the job has not started).
 */
export async function postOutcomes(
  ex: Executor,
  teamId: string,
  from: string,
  to: string,
): Promise<{ kind: CelebrationKind; post_date: string; user_ids: string[]; state: string | null }[]> {
  return rows(
    ex,
    sql`select c.kind, c.post_date::text as post_date, c.user_ids, p.state
        from celebration_posts c
        left join chat_posts p
          on p.team_id = c.team_id and p.key = ${postKeySql("celebrations", sql`c.team_id`, sql`c.kind`, sql`c.post_date`)}
        where c.team_id = ${teamId} and c.post_date between ${from}::date and ${to}::date`,
  );
}
