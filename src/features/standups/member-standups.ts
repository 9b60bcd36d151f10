import { participantsByChannel, type ScheduleRow } from "../schedules/index.ts";

/**
 * The member's own standups among `active`: those whose channel they are in, as a run would ask them; when Slack
 * cannot list a channel, those whose latest run asked them (App Home and answering ahead decide alike).
 */
export async function standupsOfMember(
  deps: Parameters<typeof participantsByChannel>[0],
  teamId: string,
  userId: string,
  active: ScheduleRow[],
  latest: readonly { scheduleId: string; status: string | null }[],
): Promise<ScheduleRow[]> {
  const members = await participantsByChannel(
    deps,
    teamId,
    active.map((s) => s.channelId),
  );
  const latestOf = new Map(latest.map((r) => [r.scheduleId, r]));
  return active.filter((s) => {
    const inChannel = members.get(s.channelId);
    return inChannel ? inChannel.includes(userId) : latestOf.get(s.id)?.status != null;
  });
}
