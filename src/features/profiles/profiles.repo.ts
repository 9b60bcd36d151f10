import { and, asc, eq, gt, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
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
 */
export async function upsertProfile(
  ex: Executor,
  teamId: string,
  userId: string,
  changes: ProfileChanges,
  setByAdmin: boolean,
  now: Date,
): Promise<ProfileRow> {
  const set = { ...changes, setByAdmin, updatedAt: now };
  const [row] = await ex
    .insert(profiles)
    .values({ teamId, userId, ...set })
    .onConflictDoUpdate({ target: [profiles.teamId, profiles.userId], set })
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
  const out: { userId: string; email: string }[] = [];
  for (let i = 0; i < emails.length; i += 1000) {
    const chunk = emails.slice(i, i + 1000);
    const found = await ex
      .select({ userId: members.userId, email: sql<string>`lower(${members.email})` })
      .from(members)
      .where(and(eq(members.teamId, teamId), eq(members.active, true), inArray(sql`lower(${members.email})`, chunk)));
    out.push(...found);
  }
  return out;
}

/** The profiles of these members; with `lock`, locked until the transaction ends (the import decides under it). */
export async function readProfiles(
  ex: Executor,
  teamId: string,
  userIds: string[],
  opts: { lock: boolean },
): Promise<ProfileRow[]> {
  const out: ProfileRow[] = [];
  for (let i = 0; i < userIds.length; i += 1000) {
    const chunk = userIds.slice(i, i + 1000);
    const query = ex
      .select()
      .from(profiles)
      .where(and(eq(profiles.teamId, teamId), inArray(profiles.userId, chunk)))
      .orderBy(asc(profiles.userId));
    out.push(...(await (opts.lock ? query.for("update") : query)));
  }
  return out;
}

export interface ImportWrite {
  userId: string;
  birthMonth: number | null;
  birthDay: number | null;
  startDate: string | null;
}

/**
 * Writes import rows: a null date leaves the stored one (an empty cell), the profile becomes admin-set. Without
 * overwrite a profile its member wrote is left alone even if it appeared since the rows were judged. Returns how
 * many profiles were written.
 */
export async function writeImportRows(
  ex: Executor,
  teamId: string,
  writes: ImportWrite[],
  overwrite: boolean,
  now: Date,
): Promise<number> {
  let written = 0;
  for (let i = 0; i < writes.length; i += 500) {
    const chunk = writes.slice(i, i + 500);
    const done = await ex
      .insert(profiles)
      .values(chunk.map((w) => ({ teamId, ...w, setByAdmin: true, updatedAt: now })))
      .onConflictDoUpdate({
        target: [profiles.teamId, profiles.userId],
        set: {
          birthMonth: sql`coalesce(excluded.birth_month, ${profiles.birthMonth})`,
          birthDay: sql`coalesce(excluded.birth_day, ${profiles.birthDay})`,
          startDate: sql`coalesce(excluded.start_date, ${profiles.startDate})`,
          setByAdmin: true,
          updatedAt: now,
        },
        ...(overwrite ? {} : { setWhere: eq(profiles.setByAdmin, true) }),
      })
      .returning({ userId: profiles.userId });
    written += done.length;
  }
  return written;
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
