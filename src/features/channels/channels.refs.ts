import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import type { Deps } from "../../deps.ts";
import { type AppError, badRequest, upstreamFailed } from "../../http/errors.ts";
import { type ChannelInfo, channelDirectory } from "./channels.service.ts";

export interface ChannelCheck {
  /**
   * The app will post in the channel: its bot joins a public channel it is not in yet (the bot token has no
   * chat:write.public, and reading its own thread back needs membership too).
   */
  join?: boolean;
}

const notFound = (field: string) =>
  badRequest(`${field}: no such channel in this workspace; for a private channel, invite the app to it first`);
const archived = (field: string) => badRequest(`${field}: the channel is archived`);
/** Slack no longer accepts the workspace's token: asking again cannot help, reinstalling does. */
const AUTH_GONE = new Set(["invalid_auth", "token_revoked", "account_inactive", "not_authed", "token_expired"]);
const reinstall = (field: string) =>
  badRequest(`${field}: Slack no longer accepts this workspace's app token; reinstall the app, then try again`);

/** A refusal shared by every channel call: the installation is gone or its token revoked. */
function accessRefusal(err: unknown, field: string): AppError | undefined {
  if (err instanceof InstallationGoneError) return reinstall(field);
  const code = slackErrorCode(err);
  return code !== undefined && AUTH_GONE.has(code) ? reinstall(field) : undefined;
}

/** The 400 for a refusal of conversations.info, or undefined when Slack could not answer (a 500). */
function infoRefusal(err: unknown, field: string): AppError | undefined {
  const gone = accessRefusal(err, field);
  if (gone) return gone;
  const code = slackErrorCode(err);
  if (code === "channel_not_found") return notFound(field);
  if (code === "missing_scope") {
    const needed = (err as { data?: { needed?: unknown } }).data?.needed;
    const scope = typeof needed === "string" && needed !== "" ? ` (${needed})` : "";
    return badRequest(
      `${field}: the app lacks the Slack permission to read this channel${scope}; reinstall the app to grant it`,
    );
  }
  return undefined;
}

/** The 400 for a refusal of conversations.join, or undefined when Slack could not answer (a 500). */
function joinRefusal(err: unknown, field: string): AppError | undefined {
  switch (slackErrorCode(err)) {
    case "channel_not_found":
      return notFound(field);
    case "is_archived":
      return archived(field);
    case "missing_scope":
      return badRequest(
        `${field}: the app is not in this channel and may not join it on its own; invite the app to the channel, or reinstall it to grant channels:join`,
      );
    case "method_not_supported_for_channel_type":
    case "channel_is_limited_access":
    case "too_many_members":
    case "restricted_action":
      return badRequest(`${field}: the app cannot join this channel; invite the app to it first`);
    default:
      return accessRefusal(err, field);
  }
}

/**
 * The reference check for a channel id the app will store and use (a standup's channel; a rule's target
 * channel, the Celebrations channel): Slack, asked with the caller's workspace token, must show it as a
 * channel of that workspace (another workspace's channel is not found), not archived and not a DM. With
 * `join`, the bot joins a public channel it is not in. A refusal is a 400 naming `field`; when Slack cannot
 * answer (rate limited, 5xx, network) it is a 500, so no unverified reference is stored.
 *
 * The id's shape is the schema's to check first: no Slack call for a malformed id.
 */
export async function requireChannel(
  deps: Pick<Deps, "chat" | "clock">,
  teamId: string,
  channelId: string,
  field: string,
  check: ChannelCheck = {},
): Promise<ChannelInfo> {
  const directory = channelDirectory(deps);
  let info: ChannelInfo;
  try {
    info = await directory.info(teamId, channelId);
  } catch (err) {
    throw infoRefusal(err, field) ?? upstreamFailed("Could not reach Slack to check the channel");
  }
  if (info.isDirect) throw badRequest(`${field}: must be a channel, not a direct message`);
  if (info.isArchived) throw archived(field);
  // Slack shows a private channel only to its members; should it show one anyway, the app cannot join it.
  if (info.isPrivate && !info.isMember) throw notFound(field);
  if (info.isMember || !check.join) return info;
  try {
    return await directory.join(teamId, channelId);
  } catch (err) {
    throw joinRefusal(err, field) ?? upstreamFailed("Could not reach Slack to add the app to the channel");
  }
}
