/**
 * The name a standup is shown by: its own name, or "#<channel> standup" when it has none (the name column
 * holds '' for that), the channel named from `channels` (see standupChannelNames) or else by its id.
 */
export function displayName(
  schedule: { name: string | null | undefined; channelId: string },
  channels?: ReadonlyMap<string, string>,
): string {
  return schedule.name?.trim() || `#${channels?.get(schedule.channelId) ?? schedule.channelId} standup`;
}
