import { setTimeout as sleep } from "node:timers/promises";
import type { WebClient } from "@slack/web-api";
import { pauseBucket, retryAfterSeconds, SLACK_BUCKETS, takeSlots } from "../../chat/rate-buckets.ts";
import type { Deps } from "../../deps.ts";
import { type BatchMember, storeChannels } from "./ask-batch.repo.ts";

/** DMs of one chunk opened at once. */
const OPENS_IN_FLIGHT = 4;

/** A member the chunk could not open a DM for: the single ask takes them (`retry`: after the queue's retry delay). */
export type OpenFallback = { userId: string; retry?: boolean };

/**
 * Opens the DMs of members asked for the first time (ask-batch.ts): conversations.open slots taken for all of them
 * in one statement, the calls a few at a time, each at its slot. A member without a slot within the inline wait, or
 * whose open failed, goes to the single ask. A 429 pauses the workspace's opens at once (as honourRetryAfter does),
 * and every call re-checks the pause right before it goes, so no other open of the workspace goes before the
 * Retry-After. The opened channels are stored in one statement, so a member who falls back later is not opened twice.
 */
export async function openDms(
  deps: Deps,
  client: WebClient,
  teamId: string,
  runId: number,
  members: BatchMember[],
): Promise<{ channels: Map<string, string>; later: OpenFallback[] }> {
  const channels = new Map<string, string>();
  const later: OpenFallback[] = [];
  if (members.length === 0) return { channels, later };
  const take = await takeSlots(deps.db, teamId, "conversations.open", members.length);
  const tookAt = performance.now();
  let paused = false;
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      const m = members[i];
      if (!m) return;
      if (i >= take.granted || paused) {
        later.push({ userId: m.userId });
        continue;
      }
      const wait = tookAt + take.waitMs(i) - performance.now();
      if (wait > 0) await sleep(wait);
      // Another worker met a 429 while this one slept: this open waits for the single ask, which honours the pause.
      if (paused) {
        later.push({ userId: m.userId });
        continue;
      }
      try {
        const res = await client.conversations.open({ users: m.userId });
        if (res.channel?.id) channels.set(m.userId, res.channel.id);
        else later.push({ userId: m.userId, retry: true });
      } catch (err) {
        const seconds = retryAfterSeconds(err);
        if (seconds !== undefined) {
          paused = true;
          await pauseBucket(
            deps.db,
            teamId,
            "conversations.open",
            SLACK_BUCKETS["conversations.open"],
            Math.max(1, seconds),
          );
        }
        later.push({ userId: m.userId, retry: seconds === undefined });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPENS_IN_FLIGHT, members.length) }, worker));
  await storeChannels(deps.db, runId, channels);
  return { channels, later };
}
