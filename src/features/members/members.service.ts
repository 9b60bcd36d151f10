import type { Deps } from "../../deps.ts";
import { badRequest, notFound, upstreamFailed } from "../../http/errors.ts";
import { shownAvatar } from "../../lib/avatars.ts";
import { FORMER_MEMBER, nameOfRow } from "../../lib/person-names.ts";
import { activeMemberIdsUnchangedSince, deactivateUnchanged, type SyncCounts } from "./member-sync.repo.ts";
import {
  findMember,
  listMembers,
  listPeopleRows,
  lockActiveAdmins,
  type MemberRow,
  type Role,
  selectActiveMemberIds,
  selectActiveMemberZones,
  selectMemberStates,
  selectNames,
  selectWorkspaceZones,
  setMemberRole,
  upsertPeople,
} from "./members.repo.ts";
import { isPerson, listSlackPeople, type SlackUser, toPerson } from "./members.slack.ts";

export interface MemberView {
  user_id: string;
  real_name: string;
  email: string;
  tz: string;
  active: boolean;
  role: Role;
}

export function presentMember(m: MemberRow): MemberView {
  return { user_id: m.userId, real_name: m.realName, email: m.email, tz: m.tz, active: m.active, role: m.role };
}

type MemberDeps = Pick<Deps, "db" | "chat" | "clock">;

/** Where gone members are looked for and marked inactive, a few hundred ids per statement. */
const DEACTIVATE_CHUNK = 500;

/**
 * Pages through users.list and stores each page as it arrives, so memory stays flat for big workspaces (only the
 * listed user ids are kept, to find who is gone). After a complete pass, active members Slack no longer lists at
 * all are marked inactive, unless something touched them while the sync ran (a team_join after their page was
 * read). Deleted users come back in the list with `deleted`: a stored one is marked inactive, one never stored (or
 * whose data an admin deleted) is not stored; returning ones are stored active again.
 */
export async function syncMembers(deps: MemberDeps, teamId: string): Promise<SyncCounts> {
  const client = await deps.chat.forTeam(teamId, "read");
  const startedAt = deps.clock.now();
  const counts: SyncCounts = { listed: 0, added: 0, deactivated: 0, reactivated: 0 };
  const seen = new Set<string>();
  for await (const people of listSlackPeople(client)) {
    const before = await selectMemberStates(
      deps.db,
      teamId,
      people.map((p) => p.userId),
    );
    await upsertPeople(deps.db, teamId, people, deps.clock.now(), { storeNewInactive: false });
    for (const p of people) {
      seen.add(p.userId);
      const was = before.get(p.userId);
      if (!was)
        counts.added += p.active ? 1 : 0; // someone gone whom Upbeat never stored is not stored now
      else if (was.active && !p.active) counts.deactivated += 1;
      else if (!was.active && p.active) counts.reactivated += 1;
    }
    counts.listed += people.length;
  }
  // A list with nobody in it is not a workspace everyone left: it deactivates no one.
  if (seen.size === 0) return counts;
  const gone = (await activeMemberIdsUnchangedSince(deps.db, teamId, startedAt)).filter((id) => !seen.has(id));
  for (let i = 0; i < gone.length; i += DEACTIVATE_CHUNK) {
    counts.deactivated += await deactivateUnchanged(
      deps.db,
      teamId,
      gone.slice(i, i + DEACTIVATE_CHUNK),
      startedAt,
      deps.clock.now(),
    );
  }
  return counts;
}

/** team_join / user_change carry the full user object. */
export async function applySlackUser(deps: Pick<Deps, "db" | "clock">, teamId: string, user: SlackUser): Promise<void> {
  // Shared channels bring user_change events for people of other organisations: they are not our members.
  if (!isPerson(user) || (user.team_id && user.team_id !== teamId)) return;
  await upsertPeople(deps.db, teamId, [toPerson(user)], deps.clock.now(), { storeNewInactive: false });
}

export async function listMemberViews(deps: Pick<Deps, "db">, teamId: string): Promise<MemberView[]> {
  return (await listMembers(deps.db, teamId)).map(presentMember);
}

export interface PersonView {
  user_id: string;
  real_name: string;
  display_name: string;
  avatar_url: string | null;
  active: boolean;
}

/**
 * The workspace's people for pickers, filters and names on any page a member sees: names and pictures, never
 * e-mail or role. Active people first, each group by name.
 */
export async function listPeople(deps: Pick<Deps, "db" | "outbound">, teamId: string): Promise<PersonView[]> {
  const people = (await listPeopleRows(deps.db, teamId)).map((m) => ({
    user_id: m.userId,
    real_name: nameOfRow(m),
    display_name: m.displayName.trim(),
    avatar_url: shownAvatar(m.avatarUrl, deps.outbound.allowPlainHttp),
    active: m.active,
  }));
  const collator = new Intl.Collator("en", { sensitivity: "base" });
  return people.sort((a, b) => Number(b.active) - Number(a.active) || collator.compare(a.real_name, b.real_name));
}

/** The member's timezone as Slack reports it; UTC when unknown. */
export async function memberTimezone(deps: Pick<Deps, "db">, teamId: string, userId: string): Promise<string> {
  return (await findMember(deps.db, teamId, userId))?.tz || "UTC";
}

/** Active members among these user ids, sorted: bots, apps and people who left are never asked. */
export async function activeMemberIds(deps: Pick<Deps, "db">, teamId: string, userIds: string[]): Promise<string[]> {
  return (await selectActiveMemberIds(deps.db, teamId, userIds)).sort();
}

/**
 * A readable name for each of these people, for messages that name someone without notifying them
 * (a `<@U…>` mention pings): real name, else display name, else "Former member" (never the bare id).
 */
export async function memberNames(
  deps: Pick<Deps, "db">,
  teamId: string,
  userIds: string[],
): Promise<Map<string, string>> {
  const known = await selectNames(deps.db, teamId, [...new Set(userIds)]);
  return new Map(userIds.map((id) => [id, known.get(id) ?? FORMER_MEMBER]));
}

function slackErrorCode(err: unknown): string | undefined {
  const e = err as { code?: string; data?: { error?: string } };
  return e?.code === "slack_webapi_platform_error" ? e.data?.error : undefined;
}

export async function inviteMember(deps: MemberDeps, teamId: string, userId: string): Promise<MemberView> {
  const client = await deps.chat.forTeam(teamId, "read");
  let user: SlackUser | undefined;
  try {
    user = (await client.users.info({ user: userId })).user as SlackUser | undefined;
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === "user_not_found" || code === "invalid_arguments") throw badRequest(`Unknown Slack user: ${userId}`);
    throw upstreamFailed("Could not reach Slack to look up the user");
  }
  if (!user?.id) throw badRequest(`Unknown Slack user: ${userId}`);
  if (!isPerson(user)) throw badRequest("Bots and apps cannot be members");
  if (user.deleted) throw badRequest("This Slack user is deactivated");
  await upsertPeople(deps.db, teamId, [toPerson(user)], deps.clock.now());
  const row = await findMember(deps.db, teamId, user.id);
  return presentMember(row!);
}

export async function changeRole(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  userId: string,
  role: Role,
): Promise<{ ok: true; user_id: string; role: Role }> {
  return deps.db.transaction(async (tx) => {
    const admins = await lockActiveAdmins(tx, teamId);
    const member = await findMember(tx, teamId, userId);
    if (!member) throw notFound("Member not found");
    if (role === "member" && member.role === "admin" && admins.length === 1 && admins[0] === userId) {
      throw badRequest("The workspace must keep at least one admin");
    }
    if (member.role !== role) await setMemberRole(tx, teamId, userId, role, deps.clock.now());
    return { ok: true as const, user_id: userId, role };
  });
}

/** Active members among these user ids with their Slack timezones, sorted by user id. */
export async function activeMemberZones(
  deps: Pick<Deps, "db">,
  teamId: string,
  userIds: string[],
): Promise<{ userId: string; tz: string }[]> {
  return (await selectActiveMemberZones(deps.db, teamId, userIds)).sort((a, b) => (a.userId < b.userId ? -1 : 1));
}

/** Per workspace, the timezones its active members are in (each once). */
export async function workspaceMemberZones(deps: Pick<Deps, "db">, teamIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const { teamId, tz } of await selectWorkspaceZones(deps.db, teamIds)) {
    out.set(teamId, [...(out.get(teamId) ?? []), tz]);
  }
  return out;
}
