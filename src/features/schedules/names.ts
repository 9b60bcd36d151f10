/** What an unnamed standup is called while its channel's name is unknown: never the channel's id (issue 24). */
export const UNKNOWN_CHANNEL_STANDUP = "Standup in a channel";

/**
 * The name a standup is shown by: its own name, or "#<channel> standup" when it has none (the name column
 * holds '' for that), the channel named from `channels` (see standupChannelNames); when the channel's name is
 * unknown (Slack slow, the channel gone), "Standup in a channel" rather than its id.
 */
export function displayName(
  schedule: { name: string | null | undefined; channelId: string },
  channels?: ReadonlyMap<string, string>,
): string {
  const own = schedule.name?.trim();
  if (own) return own;
  const channel = channels?.get(schedule.channelId);
  return channel ? `#${channel} standup` : UNKNOWN_CHANNEL_STANDUP;
}
