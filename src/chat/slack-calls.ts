import { setTimeout as sleep } from "node:timers/promises";
import type { ModalView, View } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import type { Deps } from "../deps.ts";
import { RetryLaterError } from "../lib/retry-later.ts";
import { PostInFlightError, type PostSpec, postOnce } from "./post-once.ts";
import { pacedCall, retryAfterSeconds } from "./rate-buckets.ts";

/**
 * The ways features call Slack for writes besides postOnce/callOnce, each through the workspace's rate buckets
 * (rate-buckets.ts) so a 429 waits or defers and never fails a job into backoff:
 * - `openDm`: conversations.open, paced with every instance's other opens;
 * - `replyFromListener`: a message posted from inside a listener (no job around it), handed to a job when it must
 *   wait longer than a listener should;
 * - `openView`: views.open, whose trigger lives 3 s: no bucket, one retry only when Retry-After fits in it;
 * - `publishView`: views.publish (App Home), paced.
 */

declare module "../jobs/queue.ts" {
  interface JobPayloads {
    /** A listener's reply that had to wait longer than the listener could (posted once under its key). */
    "chat.post": PostSpec;
  }
}

type CallDeps = Pick<Deps, "db" | "log" | "queue">;

/** The app's DM with a person (conversations.open, tier 3, paced per workspace; a 429 waits or defers the job). */
export async function openDm(deps: Pick<Deps, "db">, client: WebClient, teamId: string, userId: string) {
  const opened = await pacedCall(deps.db, teamId, "conversations.open", () =>
    client.conversations.open({ users: userId }),
  );
  const channel = opened.channel?.id;
  if (!channel) throw new Error("conversations.open returned no channel");
  return channel;
}

/**
 * Posts a listener's reply once under `spec.key` (a redelivered event does not reply twice). The pace and a short
 * Retry-After are waited out here (post-once.ts bounds them); a longer wait hands the reply to a `chat.post` job that
 * runs then, so it is never dropped. Another worker sending the same key already: nothing to do here.
 */
export async function replyFromListener(
  deps: CallDeps,
  client: WebClient,
  spec: PostSpec,
): Promise<string | undefined> {
  try {
    return await postOnce(deps, client, spec);
  } catch (err) {
    if (err instanceof PostInFlightError) return undefined;
    if (!(err instanceof RetryLaterError)) throw err;
    await deps.queue.enqueue("chat.post", spec, { startAfter: Math.max(1, Math.ceil(err.delayMs / 1000)) });
    deps.log.info(
      { team_id: spec.teamId, delay_ms: err.delayMs },
      "listener reply handed to a job: Slack asked to wait",
    );
    return undefined;
  }
}

export function chatJobs(deps: Deps): void {
  deps.queue.register("chat.post", async (spec) => {
    const client = await deps.chat.forTeam(spec.teamId, "post");
    await postOnce(deps, client, spec);
  });
}

/** How long a trigger_id may be used after Slack sent it. */
export const TRIGGER_LIFE_MS = 3_000;

/**
 * views.open with a trigger (valid 3 s from when Slack sent the payload; `receivedAt` is performance.now() when the
 * listener began). Not paced: a bucket's wait would spend the trigger, and a click opens one view. After a 429 it
 * is tried once more when the Retry-After still fits in the trigger's life; otherwise the view cannot be opened any
 * more (Slack refuses a stale trigger), the member clicks again, and nothing stored is lost.
 */
export async function openView(
  deps: Pick<Deps, "log">,
  client: WebClient,
  args: { trigger_id: string; view: ModalView },
  receivedAt: number,
): Promise<void> {
  try {
    await client.views.open(args);
  } catch (err) {
    const seconds = retryAfterSeconds(err);
    if (seconds === undefined) throw err;
    const waitMs = Math.max(1, seconds) * 1000;
    if (performance.now() - receivedAt + waitMs >= TRIGGER_LIFE_MS) {
      deps.log.warn({ retry_after_s: seconds }, "views.open rate limited past its trigger's life; not opened");
      return;
    }
    await sleep(waitMs);
    await client.views.open(args);
  }
}

/**
 * views.publish (App Home), paced per workspace. The Home view is built from the database whenever it is published,
 * so when Slack asks to wait longer than a listener should, this publish is left out (logged): the next open of
 * the Home tab shows the same state, nothing is lost. Called from listeners only.
 */
export async function publishView(
  deps: Pick<Deps, "db" | "log">,
  client: WebClient,
  teamId: string,
  args: { user_id: string; view: View },
): Promise<void> {
  try {
    await pacedCall(deps.db, teamId, "views.publish", () => client.views.publish(args));
  } catch (err) {
    if (!(err instanceof RetryLaterError)) throw err;
    deps.log.warn({ team_id: teamId, delay_ms: err.delayMs }, "App Home not republished: Slack asked to wait");
  }
}
