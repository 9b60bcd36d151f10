import { postOnce } from "../../chat/post-once.ts";
import type { Tx } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { standupLabel, turnMessage } from "./conversation-messages.ts";
import {
  claimDmTurn,
  claimFirstQuestion,
  dmTurnHeldByOther,
  dmTurnHolder,
  hasOtherOpenAsk,
  nextWaitingRun,
  recordQuestionTs,
  scheduleName,
} from "./dm-conversation.repo.ts";
import { askPostKey, findParticipant } from "./participants.repo.ts";
import { standupPostKeys } from "./post-keys.ts";
import { findRun, type RunRow } from "./runs.repo.ts";
import { whileLive } from "./stopped-run.ts";

/**
 * A member answers in their DM one question at a time, and a DM answer belongs to the run whose question the bot asked
 * last before it (dm_questions, by Slack ts). So that two overlapping standups never interleave their questions, one
 * run at a time holds a member's DM conversation (dm_turns): the first run to ask them asks its questions there; a run
 * asked meanwhile posts its ask with the Answer button (the modal is per run) but asks its questions in the DM only
 * when the DM is handed over to it: right after the member finishes the run before (answered, by DM or modal, or
 * skipped), or when that run closes for them. Every question message names its standup when the member has another
 * one open.
 */

export const turnPostKey = standupPostKeys.turn;

/** What a member is told the standup is called: its name, or "#channel standup". */
export async function standupName(deps: Pick<Deps, "db">, run: RunRow): Promise<string> {
  return standupLabel(run, await scheduleName(deps.db, run.teamId, run.scheduleId));
}

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "standup.turn": { teamId: string; userId: string };
  }
}

export type AskTurn =
  /** The ask DM asks the run's first question: the member answers it here. */
  | { conversation: true; name?: string }
  /** Another run holds the DM: the ask says which, and this run's questions come after it. */
  | { conversation: false; name: string; waitingFor: string };

/**
 * Decides once per run and member whether their ask DM asks the first question (the run holds or takes their DM
 * conversation) or waits its turn; a retried ask job gets the same answer, whatever happened since.
 */
export async function claimAskTurn(deps: Pick<Deps, "db" | "clock">, run: RunRow, userId: string): Promise<AskTurn> {
  const now = deps.clock.now();
  const key = { teamId: run.teamId, runId: run.id, userId };
  const askKey = askPostKey(run.id, userId);
  // Recorded before the ask is posted, whichever way it goes: waiting reserves the first question for the hand-over
  // message. A retried ask (its first attempt failed after posting "waiting") then posts the same kind of message under
  // the same key, and never takes the waiting message it gets back for the first question the member did not see.
  const first = await deps.db.transaction(async (tx) => {
    const holds = await claimDmTurn(tx, run.teamId, userId, run.id, now);
    return claimFirstQuestion(tx, key, holds ? askKey : turnPostKey(run.id, userId), now);
  });
  if (first.postKey === askKey) {
    const named = await hasOtherOpenAsk(deps.db, run.teamId, userId, run.id, now);
    return named ? { conversation: true, name: await standupName(deps, run) } : { conversation: true };
  }
  const holderId = await dmTurnHolder(deps.db, run.teamId, userId);
  const holder =
    holderId !== undefined && holderId !== run.id ? await findRun(deps.db, run.teamId, holderId) : undefined;
  return {
    conversation: false,
    name: await standupName(deps, run),
    waitingFor: holder ? await standupName(deps, holder) : "your other standup",
  };
}

/** After the ask DM that asks the first question went out: answers after it belong to this run. */
export async function askedFirstQuestion(
  deps: Pick<Deps, "db" | "clock">,
  run: RunRow,
  userId: string,
  ts: string,
): Promise<void> {
  await recordQuestionTs(deps.db, { teamId: run.teamId, runId: run.id, userId, index: 0 }, ts, deps.clock.now());
}

/**
 * After a waiting ask went out: when the run it waited for is already over for the member, its hand-over may have
 * looked before this ask existed (and found no run waiting), so the hand-over runs again now. Harmless when it did not:
 * the hand-over is claimed once per run and member.
 */
export async function handOverIfTurnFree(
  deps: Pick<Deps, "db" | "clock" | "queue">,
  run: RunRow,
  userId: string,
): Promise<void> {
  if (await dmTurnHeldByOther(deps.db, run.teamId, userId, run.id, deps.clock.now())) return;
  await deps.queue.enqueue("standup.turn", { teamId: run.teamId, userId });
}

/**
 * The member is done with a run (answered, skipped) or it is over for them: if another run of theirs still waits, a
 * job hands their DM over to it. In `tx` when given, so the job exists exactly when what ended the run does.
 */
export async function handOverIfWaiting(
  deps: Pick<Deps, "db" | "clock" | "queue">,
  teamId: string,
  userId: string,
  doneRunId: number,
  tx?: Tx,
): Promise<void> {
  if (!(await hasOtherOpenAsk(tx ?? deps.db, teamId, userId, doneRunId, deps.clock.now()))) return;
  await deps.queue.enqueue("standup.turn", { teamId, userId }, tx ? { tx } : {});
}

/**
 * The hand-over: the member's next waiting run takes their DM conversation (only once the run before is over for
 * them) and asks its first question there, naming the standup. Exactly once per run and member: the first question's
 * row is claimed for this message's key, and the message is posted once under it.
 */
export async function handOverDm(deps: Deps, teamId: string, userId: string): Promise<void> {
  const now = deps.clock.now();
  const runId = await nextWaitingRun(deps.db, teamId, userId, now);
  if (runId === undefined) return;
  const run = await findRun(deps.db, teamId, runId);
  const p = await findParticipant(deps.db, runId, userId);
  if (run?.status !== "open" || !p?.dmChannel) return;
  const key = turnPostKey(runId, userId);
  const first = await deps.db.transaction(async (tx) =>
    (await claimDmTurn(tx, teamId, userId, runId, now))
      ? claimFirstQuestion(tx, { teamId, runId, userId }, key, now)
      : undefined,
  );
  if (first?.postKey !== key || first.ts) return;
  const client = await deps.chat.forTeam(teamId, "post");
  const msg = turnMessage(run, await standupName(deps, run));
  const ts = await postOnce(deps, client, { key, teamId, channel: p.dmChannel, ...msg }, whileLive(deps, run));
  await askedFirstQuestion(deps, run, userId, ts);
}
