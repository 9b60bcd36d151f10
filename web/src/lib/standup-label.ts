import { useCallback } from "react";
import { useChannels, useStandups } from "./queries.ts";
import type { Channel, Schedule } from "./types.ts";

/** "#general standup": what an unnamed standup is called, after its channel; words, never the id, while unknown. */
export function defaultStandupName(channels: Channel[] | undefined, channelId: string): string {
  const name = channels?.find((c) => c.id === channelId)?.name;
  return name ? `#${name} standup` : "Standup in a channel";
}

export type StandupLabel = (scheduleId: string, known?: { name?: string; channelId?: string }) => string;

/**
 * A standup's label from its id: the standup list's name (an unnamed one is "#<channel name> standup"), else
 * what a response or run carries (`known`: deleted standups are not in the list), else its channel's standup.
 */
export function useStandupLabel(): StandupLabel {
  const standups = useStandups();
  const channels = useChannels();
  return useCallback<StandupLabel>(
    (scheduleId, known) => {
      const schedule: Schedule | undefined = standups.data?.find((s) => s.id === scheduleId);
      // The standup list names each standup after its channel's name; answers and runs only know the channel id.
      const name = schedule?.name || known?.name;
      if (name) return name;
      const channelId = schedule?.channel_id ?? known?.channelId;
      return channelId ? defaultStandupName(channels.data, channelId) : "Standup";
    },
    [standups.data, channels.data],
  );
}
