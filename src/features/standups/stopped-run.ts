import { InstallationGoneError } from "../../chat/chat-clients.ts";
import type { PostOptions } from "../../chat/post-once.ts";
import type { Executor } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import type { JobName } from "../../jobs/queue.ts";
import { type RunRow, type RunStanding, runStanding } from "./runs.repo.ts";

/**
 * A run whose schedule was paused or deleted, or whose workspace uninstalled the app, after it started stops where it
 * stands: no more asks or reminders, and no summary. Pausing or deleting says the channel no longer wants this
 * standup's messages, and a summary would name as missing the members whose ask never went out. The answers already
 * given stay in history and reports; a member who answers an ask they already got still sees it posted in the thread
 * and confirmed (the reply job), since that message is their own doing. The check runs right before each message is
 * claimed (and in the fan-out's claim transaction), so a job claimed before the change, or retried after a crash,
 * sends nothing. A member whose ask is stopped before it went out is recorded as not asked (`pending`), so a run
 * resumed or reinstalled the same day reminds and summarises only those it actually asked.
 */
class RunStoppedError extends Error {
  constructor(
    readonly runId: number,
    readonly standing: Exclude<RunStanding, "live">,
  ) {
    super(`run ${runId} stopped: ${standing}`);
  }
}

export async function assertLive(ex: Executor, run: RunRow): Promise<void> {
  const standing = await runStanding(ex, run.teamId, run.id);
  if (standing !== "live") throw new RunStoppedError(run.id, standing);
}

/** postOnce options that stop the post when the run stopped (checked right before the message is claimed). */
export function whileLive(deps: Deps, run: RunRow): PostOptions {
  return { beforeSend: () => assertLive(deps.db, run) };
}

/** Why a run stopped: its schedule paused or deleted (or the run gone with it), or the workspace uninstalled. */
export type StopReason = "paused" | "deleted" | "uninstalled";

/**
 * A workspace that uninstalled the app, or a run whose schedule was paused or deleted, gets no more work: the job
 * ends quietly instead of retrying, after `onStopped` (say, recording that a member was not asked after all).
 */
export function quietly<P extends { teamId: string }>(
  deps: Deps,
  job: JobName,
  fn: (p: P) => Promise<void>,
  onStopped?: (p: P, why: StopReason) => Promise<void>,
) {
  return async (p: P) => {
    try {
      await fn(p);
    } catch (err) {
      let why: StopReason;
      if (err instanceof InstallationGoneError) {
        why = "uninstalled";
        deps.log.info({ team_id: p.teamId, job }, "standup job ended: the workspace uninstalled the app");
      } else if (err instanceof RunStoppedError) {
        why = err.standing === "missing" ? "deleted" : err.standing;
        deps.log.info(
          { team_id: p.teamId, job, run_id: err.runId, standing: err.standing },
          "standup job ended: its run was stopped",
        );
      } else throw err;
      await onStopped?.(p, why);
    }
  };
}
