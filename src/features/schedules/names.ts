/**
 * The name a standup is shown by: its own name, or "#<channel> standup" when it has none (the name column
 * holds '' for that). Only the channel id is stored, so the default names the channel by its id.
 */
export function displayName(schedule: { name: string | null | undefined; channelId: string }): string {
  return schedule.name?.trim() || `#${schedule.channelId} standup`;
}
