import { slackErrorCode } from "../../chat/slack-errors.ts";
import type { Deps } from "../../deps.ts";
import { AppError, badRequest, upstreamFailed } from "../../http/errors.ts";
import { findMember } from "../members/index.ts";
import { findSchedule } from "../schedules/index.ts";

/**
 * The reference checks of a rule: its target channel, its target admin and its standup must be this workspace's.
 *
 * TODO(merge): switch checkChannelTarget to requireChannel(deps, teamId, id, "action_target", { join: true }) from
 * the channels feature and checkAdminTarget to requireMember(deps, teamId, id, "action_target") from the members
 * feature (keeping the admin-role check here) once those helpers are on this branch's base.
 */

type SlackChannel = {
  is_private?: boolean;
  is_archived?: boolean;
  is_im?: boolean;
  is_mpim?: boolean;
  is_member?: boolean;
};

const FIELD = "action_target";

/**
 * A channel the app can post in: Slack, asked with this workspace's token, shows it (another workspace's channel
 * and a private one without the app are `channel_not_found`), it is not archived, not a DM, and the app is in it
 * (the bot token has no chat:write.public). A refusal is a 400 naming action_target; when Slack cannot answer it
 * is a 500, so no unverified target is stored.
 */
export async function checkChannelTarget(deps: Pick<Deps, "chat">, teamId: string, channelId: string): Promise<void> {
  let channel: SlackChannel | undefined;
  try {
    const client = await deps.chat.forTeam(teamId, "read");
    channel = (await client.conversations.info({ channel: channelId })).channel as SlackChannel | undefined;
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === "channel_not_found") {
      throw badRequest(
        `${FIELD}: no such channel in this workspace; for a private channel, invite the app to it first`,
      );
    }
    if (code === "missing_scope") {
      throw badRequest(`${FIELD}: the app lacks the Slack permission to read this channel; reinstall the app`);
    }
    throw upstreamFailed("Could not reach Slack to check the channel");
  }
  if (channel?.is_im || channel?.is_mpim) throw badRequest(`${FIELD}: must be a channel, not a direct message`);
  if (channel?.is_archived) throw badRequest(`${FIELD}: the channel is archived`);
  if (!channel?.is_member) {
    throw badRequest(`${FIELD}: the app is not in this channel; invite the app to the channel first (/invite @Upbeat)`);
  }
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
