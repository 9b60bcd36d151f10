import type { Deps } from "../../deps.ts";
import { badRequest } from "../../http/errors.ts";
import { selectMemberStates } from "./members.repo.ts";

/** Why `state` cannot be referred to, or undefined when it can. */
function problem(state: { active: boolean } | undefined): string | undefined {
  if (!state) return "no such member in this workspace";
  if (!state.active) return "this member is deactivated in this workspace";
  return undefined;
}

/**
 * The reference check for user ids the app will store (a rule's admin, the Celebrations admins): each must be an
 * active member of the caller's workspace, as the member sync knows them (bots and apps are never members;
 * people who left Slack are inactive). A 400 names the first bad one as `field[i]`, e.g.
 * "admins[1]: no such member in this workspace". One query, whatever the number of ids.
 */
export async function requireMembers(
  deps: Pick<Deps, "db">,
  teamId: string,
  userIds: readonly string[],
  field: string,
): Promise<void> {
  const states = await selectMemberStates(deps.db, teamId, [...new Set(userIds)]);
  for (const [i, userId] of userIds.entries()) {
    const why = problem(states.get(userId));
    if (why) throw badRequest(`${field}[${i}]: ${why}`);
  }
}

/** requireMembers for a single user id (a rule's target admin): the 400 names `field` as it is. */
export async function requireMember(
  deps: Pick<Deps, "db">,
  teamId: string,
  userId: string,
  field: string,
): Promise<void> {
  const why = problem((await selectMemberStates(deps.db, teamId, [userId])).get(userId));
  if (why) throw badRequest(`${field}: ${why}`);
}
