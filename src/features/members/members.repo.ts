import { and, asc, eq, sql } from "drizzle-orm";
import { anyOf, pgArray } from "../../db/arrays.ts";
import { type Db, type Executor, rows } from "../../db/client.ts";
import { members } from "../../db/schema.ts";
import { nameOfRow } from "../../lib/person-names.ts";

export type MemberRow = typeof members.$inferSelect;
export type Role = "admin" | "member";

/** What Slack tells us about a person, reduced to what we keep. */
export interface SlackPerson {
  userId: string;
  realName: string;
  displayName: string;
  /** An https address of the person's picture; absent or "" when unknown. */
  avatarUrl?: string;
  email: string;
  tz: string;
  active: boolean;
  slackAdmin: boolean;
}

export async function findMember(ex: Executor, teamId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await ex
    .select()
    .from(members)
    .where(and(eq(members.teamId, teamId), eq(members.userId, userId)))
    .limit(1);
  return row;
}

export async function listMembers(ex: Executor, teamId: string): Promise<MemberRow[]> {
  return ex
    .select()
    .from(members)
    .where(eq(members.teamId, teamId))
    .orderBy(asc(members.realName), asc(members.userId));
}

/**
 * The columns the people list shows, in listMembers' order: at 5,000 members, reading every column (e-mail,
 * timezone, role and two timestamps made into Dates) was most of /people's database and parsing time.
 */
export function listPeopleRows(ex: Executor, teamId: string) {
  return ex
    .select({
      userId: members.userId,
      realName: members.realName,
      displayName: members.displayName,
      avatarUrl: members.avatarUrl,
      active: members.active,
    })
    .from(members)
    .where(eq(members.teamId, teamId))
    .orderBy(asc(members.realName), asc(members.userId));
}

/** Which of these user ids are active members of the workspace. */
export async function selectActiveMemberIds(ex: Executor, teamId: string, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await ex
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.teamId, teamId), eq(members.active, true), anyOf(members.userId, userIds)));
  return found.map((r) => r.userId);
}

/** Which of these user ids are members of the workspace, active or not; unknown ids are absent. */
export async function selectMemberStates(
  ex: Executor,
  teamId: string,
  userIds: string[],
): Promise<Map<string, { active: boolean }>> {
  if (userIds.length === 0) return new Map();
  const found = await ex
    .select({ userId: members.userId, active: members.active })
    .from(members)
    .where(and(eq(members.teamId, teamId), anyOf(members.userId, userIds)));
  return new Map(found.map((r) => [r.userId, { active: r.active }]));
}

/** Active members among these user ids with their Slack timezones. */
export async function selectActiveMemberZones(
  ex: Executor,
  teamId: string,
  userIds: string[],
): Promise<{ userId: string; tz: string }[]> {
  if (userIds.length === 0) return [];
  return ex
    .select({ userId: members.userId, tz: members.tz })
    .from(members)
    .where(and(eq(members.teamId, teamId), eq(members.active, true), anyOf(members.userId, userIds)));
}

/** The distinct timezones of each workspace's active members. */
export async function selectWorkspaceZones(ex: Executor, teamIds: string[]): Promise<{ teamId: string; tz: string }[]> {
  if (teamIds.length === 0) return [];
  return ex
    .selectDistinct({ teamId: members.teamId, tz: members.tz })
    .from(members)
    .where(and(anyOf(members.teamId, teamIds), eq(members.active, true)));
}

/** The names these people go by in the workspace: real name, else display name; unknown ids are absent. */
export async function selectNames(ex: Executor, teamId: string, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const found = await ex
    .select({ userId: members.userId, realName: members.realName, displayName: members.displayName })
    .from(members)
    .where(and(eq(members.teamId, teamId), anyOf(members.userId, userIds)));
  return new Map(found.map((m) => [m.userId, nameOfRow(m)]));
}

/**
 * Insert or refresh people from Slack. A new Slack admin or owner starts as admin; a known member is promoted
 * only when Slack's admin flag turns on (was seen off, now on), so a role set in the dashboard, up or down,
 * survives later syncs and user_change events. A sync never demotes.
 */
/**
 * Stores people as Slack describes them, only while the workspace is installed: a share lock on its installation
 * row waits for a workspace deletion under way and then finds the row gone, so a look-up that was already running
 * cannot bring a deleted workspace's members back.
 */
export async function upsertPeople(
  ex: Executor,
  teamId: string,
  people: SlackPerson[],
  now: Date,
  opts: { storeNewInactive?: boolean } = {},
): Promise<void> {
  if (people.length === 0) return;
  await (ex as Db).transaction(async (tx) => {
    const [installed] = await rows<{ one: number }>(
      tx,
      sql`select 1 as one from installations where team_id = ${teamId} for key share`,
    );
    if (!installed) return;
    await upsertPeopleRows(tx, teamId, people, now, { storeNewInactive: opts.storeNewInactive ?? true });
  });
}

/**
 * Inserts or updates these people. With `storeNewInactive: false` (what Slack's lists and user_change events use),
 * people Slack reports deleted or deactivated only update a row that exists (marking it inactive): someone gone
 * whom Upbeat never stored, or whose data an admin deleted, is not written, so a sync or an event never brings back
 * a deleted member's name, e-mail and timezone.
 */
async function upsertPeopleRows(
  ex: Executor,
  teamId: string,
  all: SlackPerson[],
  now: Date,
  opts: { storeNewInactive: boolean },
): Promise<void> {
  const gone = opts.storeNewInactive ? [] : all.filter((p) => !p.active);
  if (gone.length > 0) {
    await ex
      .update(members)
      .set({ active: false, updatedAt: now })
      .where(
        and(
          eq(members.teamId, teamId),
          anyOf(
            members.userId,
            gone.map((p) => p.userId),
          ),
          eq(members.active, true),
        ),
      );
  }
  const people = opts.storeNewInactive ? all : all.filter((p) => p.active);
  if (people.length === 0) return;
  const text = (pick: (p: SlackPerson) => string) => pgArray("text", people.map(pick));
  const active = pgArray(
    "bool",
    people.map((p) => p.active),
  );
  const slackAdmin = pgArray(
    "bool",
    people.map((p) => p.slackAdmin),
  );
  const at = sql`${now.toISOString()}::timestamptz`;
  // One array per column, not a row of parameters per person: any number of people fits in one statement. On a
  // conflict the role is promoted only when Slack's flag turns on ("is false", not "not": a flag never seen, null
  // on rows from before it was stored, promotes no one).
  await ex.execute(
    sql`insert into members (team_id, user_id, real_name, display_name, avatar_url, email, tz, active, role,
                             slack_admin, created_at, updated_at)
        select ${teamId}::text, p.user_id, p.real_name, p.display_name, p.avatar_url, p.email, p.tz, p.active,
               case when p.slack_admin then 'admin' else 'member' end, p.slack_admin, ${at}, ${at}
        from unnest(${text((p) => p.userId)}, ${text((p) => p.realName)}, ${text((p) => p.displayName)},
                    ${text((p) => p.avatarUrl ?? "")}, ${text((p) => p.email)}, ${text((p) => p.tz)}, ${active},
                    ${slackAdmin})
          with ordinality as p(user_id, real_name, display_name, avatar_url, email, tz, active, slack_admin, n)
        order by p.n
        on conflict (team_id, user_id) do update set
          real_name = excluded.real_name, display_name = excluded.display_name, avatar_url = excluded.avatar_url,
          email = excluded.email,
          tz = excluded.tz, active = excluded.active,
          role = case when excluded.slack_admin and members.slack_admin is false then 'admin' else members.role end,
          slack_admin = excluded.slack_admin, updated_at = excluded.updated_at`,
  );
}

export async function setMemberRole(
  ex: Executor,
  teamId: string,
  userId: string,
  role: Role,
  now: Date,
): Promise<void> {
  await ex
    .update(members)
    .set({ role, updatedAt: now })
    .where(and(eq(members.teamId, teamId), eq(members.userId, userId)));
}

/** Locks the workspace's active admins for the rest of the transaction, so two demotions cannot both pass the guard. */
export async function lockActiveAdmins(ex: Executor, teamId: string): Promise<string[]> {
  const found = await rows<{ user_id: string }>(
    ex,
    sql`select user_id from members where team_id = ${teamId} and role = 'admin' and active order by user_id for update`,
  );
  return found.map((r) => r.user_id);
}

/** The installer is an admin from the first second; names arrive with the member sync. */
export async function ensureAdmin(ex: Executor, teamId: string, userId: string, now: Date): Promise<void> {
  await ex
    .insert(members)
    .values({ teamId, userId, realName: "", role: "admin", active: true, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [members.teamId, members.userId],
      set: { role: "admin", active: true, updatedAt: now },
    });
}
