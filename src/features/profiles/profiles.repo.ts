import { and, asc, eq, gt, isNotNull, or, type SQL, sql } from "drizzle-orm";
import { anyOf, pgArray } from "../../db/arrays.ts";
import { type Executor, rows } from "../../db/client.ts";
import { members, profiles } from "../../db/schema.ts";

export type ProfileRow = typeof profiles.$inferSelect;

/** The columns a write may set; absent ones keep their value (or the column default for a new row). */
export interface ProfileChanges {
  birthMonth?: number | null;
  birthDay?: number | null;
  startDate?: string | null;
  role?: string;
  location?: string;
  askMeAbout?: string;
  celebrate?: boolean;
}

export async function findProfile(ex: Executor, teamId: string, userId: string): Promise<ProfileRow | undefined> {
  const [row] = await ex
    .select()
    .from(profiles)
    .where(and(eq(profiles.teamId, teamId), eq(profiles.userId, userId)))
    .limit(1);
  return row;
}

/**
 * One statement: creates the profile or changes only the given columns, so two saves at once (the modal and the
 * dashboard, or an admin and the member) each keep what they sent and never undo the other's other fields.
 *
 * `set_by_admin` says who last set the DATES: it becomes `setByAdmin` only when a date sent differs from the one
 * stored (decided in the same statement); a save of other fields, or of the same dates, leaves it as it was.
 */
export async function upsertProfile(
  ex: Executor,
  teamId: string,
  userId: string,
  changes: ProfileChanges,
  setByAdmin: boolean,
  now: Date,
): Promise<ProfileRow> {
  const dates = [
    changes.birthMonth !== undefined ? sql`${profiles.birthMonth} is distinct from excluded.birth_month` : null,
    changes.birthDay !== undefined ? sql`${profiles.birthDay} is distinct from excluded.birth_day` : null,
    changes.startDate !== undefined ? sql`${profiles.startDate} is distinct from excluded.start_date` : null,
  ].filter((d): d is SQL => d !== null);
  const anyDate = changes.birthMonth != null || changes.birthDay != null || changes.startDate != null;
  const [row] = await ex
    .insert(profiles)
    .values({ teamId, userId, ...changes, setByAdmin: anyDate ? setByAdmin : false, updatedAt: now })
    .onConflictDoUpdate({
      target: [profiles.teamId, profiles.userId],
      set: {
        ...changes,
        updatedAt: now,
        ...(dates.length > 0
          ? {
              setByAdmin: sql`case when ${sql.join(dates, sql` or `)} then ${setByAdmin} else ${profiles.setByAdmin} end`,
            }
          : {}),
      },
    })
    .returning();
  return row!;
}

export interface MemberProfileRow {
  userId: string;
  realName: string;
  displayName: string;
  email: string;
  profile: ProfileRow | null;
}

/** Active members (user id order, after the cursor) with their profiles, if any: one page of the admin list. */
export async function listMemberProfiles(
  ex: Executor,
  teamId: string,
  after: string | undefined,
  limit: number,
): Promise<MemberProfileRow[]> {
  const found = await ex
    .select({
      userId: members.userId,
      realName: members.realName,
      displayName: members.displayName,
      email: members.email,
      profile: profiles,
    })
    .from(members)
    .leftJoin(profiles, and(eq(profiles.teamId, members.teamId), eq(profiles.userId, members.userId)))
    .where(
      and(
        eq(members.teamId, teamId),
        eq(members.active, true),
        after === undefined ? undefined : gt(members.userId, after),
      ),
    )
    .orderBy(asc(members.userId))
    .limit(limit);
  return found;
}

/** Active members whose e-mail address (any case) is one of these lower-case addresses. */
export async function activeMembersByEmail(
  ex: Executor,
  teamId: string,
  emails: string[],
): Promise<{ userId: string; email: string }[]> {
  return ex
    .select({ userId: members.userId, email: sql<string>`lower(${members.email})` })
    .from(members)
    .where(and(eq(members.teamId, teamId), eq(members.active, true), anyOf(sql`lower(${members.email})`, emails)));
}

/** The profiles of these members; with `lock`, locked until the transaction ends (the import decides under it). */
export async function readProfiles(
  ex: Executor,
  teamId: string,
  userIds: string[],
  opts: { lock: boolean },
): Promise<ProfileRow[]> {
  const query = ex
    .select()
    .from(profiles)
    .where(and(eq(profiles.teamId, teamId), anyOf(profiles.userId, userIds)))
    .orderBy(asc(profiles.userId));
  return opts.lock ? query.for("update") : query;
}

export interface ImportWrite {
  userId: string;
  birthMonth: number | null;
  birthDay: number | null;
  startDate: string | null;
}

/**
 * Writes import rows, date by date: a null date leaves the stored one (an empty cell, or a date the row may not
 * change). A stored empty date is always filled; a date the member set (`set_by_admin` false) is replaced only with
 * `overwrite` — decided again in the statement, for a profile that appeared since the rows were judged. The profile
 * becomes admin-set unless one of the member's own dates remains. Returns how many profiles were changed.
 */
export async function writeImportRows(
  ex: Executor,
  teamId: string,
  writes: ImportWrite[],
  overwrite: boolean,
  now: Date,
): Promise<number> {
  if (writes.length === 0) return 0;
  // May the import replace this stored (non-null) date? An admin's, or any with overwrite.
  const mayReplace = overwrite ? sql`true` : sql`${profiles.setByAdmin}`;
  const birthdayTaken = sql`(excluded.birth_month is not null and (${profiles.birthMonth} is null or ${mayReplace}))`;
  const startTaken = sql`(excluded.start_date is not null and (${profiles.startDate} is null or ${mayReplace}))`;
  // One of the member's own dates stays as it was: the dates are then still (partly) theirs.
  const memberDateStays = sql`(not ${profiles.setByAdmin} and (
    (${profiles.birthMonth} is not null and not ${birthdayTaken}) or (${profiles.startDate} is not null and not ${startTaken})))`;
  const userIds = pgArray(
    "text",
    writes.map((w) => w.userId),
  );
  const month = pgArray(
    "int2",
    writes.map((w) => w.birthMonth),
  );
  const day = pgArray(
    "int2",
    writes.map((w) => w.birthDay),
  );
  const start = pgArray(
    "date",
    writes.map((w) => w.startDate),
  );
  // One array per column: an import of any size is one statement of constant text.
  const done = await rows<{ user_id: string }>(
    ex,
    sql`insert into profiles (team_id, user_id, birth_month, birth_day, start_date, set_by_admin, updated_at)
        select ${teamId}::text, w.user_id, w.birth_month, w.birth_day, w.start_date, true, ${now.toISOString()}::timestamptz
        from unnest(${userIds}, ${month}, ${day}, ${start}) with ordinality as w(user_id, birth_month, birth_day, start_date, n)
        order by w.n
        on conflict (team_id, user_id) do update set
          birth_month = case when ${birthdayTaken} then excluded.birth_month else ${profiles.birthMonth} end,
          birth_day = case when ${birthdayTaken} then excluded.birth_day else ${profiles.birthDay} end,
          start_date = case when ${startTaken} then excluded.start_date else ${profiles.startDate} end,
          set_by_admin = not ${memberDateStays},
          updated_at = excluded.updated_at
        where ${birthdayTaken} or ${startTaken}
        returning user_id`,
  );
  return done.length;
}

export interface CelebrationProfile {
  userId: string;
  birthMonth: number | null;
  birthDay: number | null;
  startDate: string | null;
}

/** Active members who want to be celebrated and have a birthday or a start date. */
export async function selectCelebrationProfiles(ex: Executor, teamId: string): Promise<CelebrationProfile[]> {
  return ex
    .select({
      userId: profiles.userId,
      birthMonth: profiles.birthMonth,
      birthDay: profiles.birthDay,
      startDate: profiles.startDate,
    })
    .from(profiles)
    .innerJoin(members, and(eq(members.teamId, profiles.teamId), eq(members.userId, profiles.userId)))
    .where(
      and(
        eq(profiles.teamId, teamId),
        eq(members.active, true),
        eq(profiles.celebrate, true),
        or(isNotNull(profiles.birthMonth), isNotNull(profiles.startDate)),
      ),
    )
    .orderBy(asc(profiles.userId));
}

/** Active members who have not opted out and lack a birthday or a start date (no profile counts as lacking both). */
export async function selectMissingDates(ex: Executor, teamId: string): Promise<string[]> {
  const found = await ex
    .select({ userId: members.userId })
    .from(members)
    .leftJoin(profiles, and(eq(profiles.teamId, members.teamId), eq(profiles.userId, members.userId)))
    .where(
      and(
        eq(members.teamId, teamId),
        eq(members.active, true),
        sql`coalesce(${profiles.celebrate}, true)`,
        or(sql`${profiles.birthMonth} is null`, sql`${profiles.startDate} is null`),
      ),
    )
    .orderBy(asc(members.userId));
  return found.map((r) => r.userId);
}
