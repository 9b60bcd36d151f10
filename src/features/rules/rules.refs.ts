import type { Deps } from "../../deps.ts";
import { AppError, badRequest } from "../../http/errors.ts";
import { requireChannel } from "../channels/index.ts";
import { findMember } from "../members/index.ts";
import { findSchedule } from "../schedules/index.ts";

/** The reference checks of a rule: its target channel, its target admin and its standup must be this workspace's. */

const FIELD = "action_target";

/**
 * post_to_channel's target: the channels feature's check (Slack shows it to this workspace's token, not archived,
 * not a DM); the app joins a public channel it is not in yet, since it will post there.
 */
export async function checkChannelTarget(
  deps: Pick<Deps, "chat" | "clock">,
  teamId: string,
  channelId: string,
): Promise<void> {
  await requireChannel(deps, teamId, channelId, FIELD, { join: true });
}

/** Why this user cannot receive a rule's DMs (not a member, deactivated, not an admin), or undefined. */
export async function adminTargetProblem(
  deps: Pick<Deps, "db">,
  teamId: string,
  userId: string,
): Promise<string | undefined> {
  const member = await findMember(deps.db, teamId, userId);
  if (!member) return "no such member in this workspace";
  if (!member.active) return "this member is deactivated in this workspace";
  if (member.role !== "admin") return "this member is not an admin";
  return undefined;
}

/** dm_admin's target: an active admin of this workspace, as the member sync and the dashboard's roles know them. */
export async function checkAdminTarget(deps: Pick<Deps, "db">, teamId: string, userId: string): Promise<void> {
  const why = await adminTargetProblem(deps, teamId, userId);
  if (why) throw badRequest(`${FIELD}: ${why}; dm_admin needs the user id of an active admin`);
}

/** A standup of this workspace that is not deleted; anything else is a 400 naming schedule_id. */
export async function checkSchedule(deps: Pick<Deps, "db">, teamId: string, scheduleId: string): Promise<void> {
  try {
    await findSchedule(deps, teamId, scheduleId);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) {
      throw badRequest(
        "schedule_id: no such standup in this workspace; send the id of one of its standups, or null for every standup",
      );
    }
    throw err;
  }
}
