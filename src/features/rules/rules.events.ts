import type { Tx } from "../../db/client.ts";
import type { RuleTrigger } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { claimBlockerFirings, claimFirings, type FiringSubject } from "./firings.repo.ts";
import { deleteRulesOfSchedule } from "./rules.repo.ts";

/** The triggers checked when a run closes: each looks at the whole run once. */
const CLOSE_TRIGGERS: RuleTrigger[] = ["participation_below", "mood_below"];

/**
 * Inside the emitter's transaction: claims a firing per matching rule and enqueues its job with `{ tx }`, so a
 * firing exists exactly when the answer or the close does. No network here; the job computes and posts.
 */
async function fire(deps: Pick<Deps, "queue">, tx: Tx, triggers: RuleTrigger[], subject: FiringSubject) {
  for (const firingId of await claimFirings(tx, triggers, subject)) {
    await deps.queue.enqueue("rules.fire", { teamId: subject.teamId, firingId }, { tx });
  }
}

/** Rules react to what the standups feature tells through `deps.events`. */
export function ruleSubscribers(deps: Pick<Deps, "events" | "queue">): void {
  // Once per response already (the standups feature claims it); the firing's unique key makes it so regardless.
  deps.events.on("blocker.reported", (tx, e) =>
    fire(deps, tx, ["blocker_reported"], {
      teamId: e.teamId,
      scheduleId: e.data.scheduleId,
      runId: e.data.runId,
      responseId: e.data.responseId,
      at: e.at,
    }),
  );
  // A rule limited to a deleted standup could never fire again: it goes with the standup.
  deps.events.on("standup.deleted", async (tx, e) => {
    await deleteRulesOfSchedule(tx, e.teamId, e.data.scheduleId);
  });
  deps.events.on("standup.completed", async (tx, e) => {
    await fire(deps, tx, CLOSE_TRIGGERS, {
      teamId: e.teamId,
      scheduleId: e.data.scheduleId,
      runId: e.data.runId,
      responseId: null,
      at: e.at,
    });
    // Each close of a standup is its daily look at its open blockers' age (on the run's date, in the standup's zone):
    // an item still open at the end of its N-th day escalates then, once.
    const firings = await claimBlockerFirings(tx, {
      teamId: e.teamId,
      scheduleId: e.data.scheduleId,
      runId: e.data.runId,
      localDate: e.data.standupDate,
      at: e.at,
    });
    for (const firingId of firings) await deps.queue.enqueue("rules.fire", { teamId: e.teamId, firingId }, { tx });
  });
}
