import { useCallback } from "react";
import { useChannels, useStandups } from "./queries.ts";
import type { Channel, Schedule } from "./types.ts";

/** "#general standup": what an unnamed standup is called, after its channel. */
export function defaultStandupName(channels: Channel[] | undefined, channelId: string): string {
  return `#${channels?.find((c) => c.id === channelId)?.name ?? channelId} standup`;
}

export type StandupLabel = (scheduleId: string, known?: { name?: string; channelId?: string }) => string;

/**
 * A standup's label from its id: its name, else its channel's standup. `known` (from a response that carries
 * them) fills in what the standup list does not have (it leaves out deleted standups).
 */
export function useStandupLabel(): StandupLabel {
  const standups = useStandups();
  const channels = useChannels();
  return useCallback<StandupLabel>(
    (scheduleId, known) => {
      const schedule = standups.data?.find((s) => s.id === scheduleId) as
        | (Schedule & Partial<{ name: string }>)
        | undefined;
      const name = known?.name || schedule?.name;
      if (name) return name;
      const channelId = schedule?.channel_id ?? known?.channelId;
      return channelId ? defaultStandupName(channels.data, channelId) : "Standup";
    },
    [standups.data, channels.data],
  );
}
