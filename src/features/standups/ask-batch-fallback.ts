import { setTimeout as sleep } from "node:timers/promises";
import { MAX_INLINE_WAIT_MS } from "../../chat/rate-buckets.ts";
import type { Deps } from "../../deps.ts";
import { RetryLaterError } from "../../lib/retry-later.ts";
import { type AskOne, type Fallback, type Payload, POSTS_IN_FLIGHT } from "./ask-batch.ts";

/** The single ask for the members a chunk of asks (ask-batch.ts) leaves to it: as their own jobs, or in the chunk's. */

/** Single asks for these members (now, or after a Retry-After), at the chunk's priority. */
export async function single(deps: Deps, p: Payload, userIds: string[], afterSeconds?: number): Promise<void> {
  if (userIds.length === 0) return;
  if (afterSeconds === undefined) {
    await deps.queue.enqueueMany(
      "standup.ask",
      userIds.map((userId) => ({ teamId: p.teamId, runId: p.runId, userId })),
      { priority: () => -p.chunk },
    );
    return;
  }
  for (const userId of userIds) {
    await deps.queue.enqueue(
      "standup.ask",
      { teamId: p.teamId, runId: p.runId, userId },
      { startAfter: afterSeconds, priority: -p.chunk },
    );
  }
}

/**
 * The single ask, in this job, for members the chunk met trouble with (a 429, an error, no pacing slot in time):
 * a few at a time, each after the Retry-After Slack gave, so a 429 costs what it costs a single ask job (the same
 * in-process wait, no retry used). What the single ask defers (RetryLaterError) becomes its own job that long from
 * now, as the queue defers a job; any other error gets the member their own job, which retries as jobs do.
 */
export async function inline(deps: Deps, p: Payload, askOne: AskOne, members: Fallback[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let f = members[next++]; f; f = members[next++]) {
      const { userId, afterMs } = f;
      if (f.retry) {
        // Slack failed this member's call: as their job would, they are retried after the queue's retry delay.
        deps.metrics.jobFailures.inc({ queue: "standup.asks", outcome: "retry" });
        await single(deps, p, [userId], deps.queue.settings.retryDelaySeconds || undefined);
        continue;
      }
      try {
        if (afterMs !== undefined && afterMs > MAX_INLINE_WAIT_MS) {
          throw new RetryLaterError(afterMs, `Slack answered 429 to chat.postMessage: Retry-After ${afterMs / 1000} s`);
        }
        if (afterMs) await sleep(afterMs);
        await askOne({ teamId: p.teamId, runId: p.runId, userId });
      } catch (err) {
        if (err instanceof RetryLaterError) {
          await single(deps, p, [userId], Math.max(1, Math.ceil(err.delayMs / 1000)));
          deps.log.info({ job: "standup.ask", team_id: p.teamId, reason: err.message }, "job deferred");
        } else {
          deps.log.warn(
            { job: "standup.asks", team_id: p.teamId, run_id: p.runId, err: String(err) },
            "ask failed; its own job retries it",
          );
          await single(deps, p, [userId]);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(POSTS_IN_FLIGHT, members.length) }, worker));
}
