import type { Tx } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { dmTurnHolder, hasOtherOpenAsk, recordQuestionTs, runOfLastQuestion } from "./dm-conversation.repo.ts";
import { handOverIfWaiting, standupName } from "./dm-conversation.ts";
import { appendDraftAnswer } from "./drafts.repo.ts";
import type { StandupResponseEvent } from "./events.ts";
import { MAX_ANSWER_LENGTH } from "./messages.ts";
import { answerWindow } from "./own-time.ts";
import { findParticipant, openRunsOfMember, type ParticipantRow, updateParticipant } from "./participants.repo.ts";
import { responseFields } from "./response-fields.ts";
import { claimBlockerReported, findResponseOfRun, upsertResponse } from "./responses.repo.ts";
import { findRun } from "./runs.repo.ts";

export type SubmitOutcome =
  | { ok: true; responseId: number; created: boolean }
  | { ok: false; reason: "not_found" | "closed" | "not_participant" | "too_long" | "empty" };

type AnswerDeps = Pick<Deps, "db" | "clock" | "queue" | "events">;

/** A member-timezone participant answers until their own window ends, though the run stays open for others. */
export function ownWindowClosed(p: Pick<ParticipantRow, "closesAt">, now: Date): boolean {
  return p.closesAt !== null && p.closesAt.getTime() <= now.getTime();
}

/**
 * Stores a member's answers for a run: the first submission creates the response, later ones edit it
 * while the run takes answers (see `answerWindow`: a first answer after the member's window closed is late). The thread reply is a job enqueued in the same transaction.
 */
export async function submitResponse(
  deps: AnswerDeps,
  input: { teamId: string; runId: number; userId: string; answers: string[]; mood: string | null },
  /** More to store with the answer, in its transaction (the modal's shout-out): all of it or none of it. */
  alsoStore?: (tx: Tx, saved: { responseId: number; channelId: string }) => Promise<unknown>,
): Promise<SubmitOutcome> {
  const run = await findRun(deps.db, input.teamId, input.runId);
  if (!run) return { ok: false, reason: "not_found" };
  if (run.status !== "open" && run.status !== "closed") return { ok: false, reason: "closed" };
  const participant = await findParticipant(deps.db, run.id, input.userId);
  if (!participant || participant.status === "pending") return { ok: false, reason: "not_participant" };
  // After their window closed the answer is still taken, marked late, until the standup asks them again.
  const window = await answerWindow(deps, run, participant);
  if (window === "closed") return { ok: false, reason: "closed" };
  const fields = responseFields(run, input.answers, input.mood);
  if (fields.answers.some((a) => a.length > MAX_ANSWER_LENGTH)) return { ok: false, reason: "too_long" };
  if (fields.answers.every((a) => a === "")) return { ok: false, reason: "empty" };
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const saved = await upsertResponse(
      tx,
      {
        teamId: run.teamId,
        scheduleId: run.scheduleId,
        runId: run.id,
        userId: input.userId,
        // The run's local date, whenever the answer arrives (a 23:50 run answered at 00:10 stays on its day).
        standupDate: run.localDate,
        ...fields,
        // Only a first submission sets it: an edit keeps the flag the response was given.
        late: window === "late",
      },
      now,
    );
    await updateParticipant(tx, run.id, input.userId, { status: "answered", draft: null });
    // Done with this run: another standup waiting for the member's DM conversation asks its questions now.
    if (saved.created) await handOverIfWaiting(deps, run.teamId, input.userId, run.id, tx);
    await deps.queue.enqueue("standup.reply", { teamId: run.teamId, responseId: saved.id }, { tx });
    const data: StandupResponseEvent = {
      responseId: saved.id,
      runId: run.id,
      scheduleId: run.scheduleId,
      userId: input.userId,
      standupDate: run.localDate,
    };
    const type = saved.created ? "standup.submitted" : "standup.updated";
    await deps.events.emit(tx, { type, teamId: run.teamId, data, at: now });
    if (fields.hasBlocker && (await claimBlockerReported(tx, saved.id, now)))
      await deps.events.emit(tx, { type: "blocker.reported", teamId: run.teamId, data, at: now });
    if (alsoStore) await alsoStore(tx, { responseId: saved.id, channelId: run.channelId });
    return { ok: true as const, responseId: saved.id, created: saved.created };
  });
}

/** `skip` from the DM, the button or the slash command: today's open runs the member has not answered. */
export async function skipToday(deps: AnswerDeps, teamId: string, userId: string): Promise<number> {
  let skipped = 0;
  for (const run of await openRunsOfMember(deps.db, teamId, userId, deps.clock.now())) {
    if (run.participantStatus !== "asked") continue;
    await updateParticipant(deps.db, run.id, userId, { status: "skipped", draft: null });
    skipped += 1;
  }
  return skipped;
}

export async function skipRun(deps: AnswerDeps, teamId: string, runId: number, userId: string): Promise<boolean> {
  const run = await findRun(deps.db, teamId, runId);
  const p = run ? await findParticipant(deps.db, runId, userId) : undefined;
  if (run?.status !== "open" || p?.status !== "asked" || ownWindowClosed(p, deps.clock.now())) return false;
  await updateParticipant(deps.db, runId, userId, { status: "skipped", draft: null });
  await handOverIfWaiting(deps, teamId, userId, runId);
  return true;
}

export type ConversationReply =
  | { kind: "none" }
  | { kind: "next"; question: string; index: number; total: number; runId: number; name?: string }
  | { kind: "done"; responseId: number }
  | { kind: "skipped" }
  | { kind: "too_long" }
  | { kind: "closed" }
  /** The message came after the member finished a run, and the next one is taking the DM: its question follows. */
  | { kind: "handed_over" };

/**
 * The run a DM message answers: the one whose question the bot asked last before it (dm-conversation.ts). A member
 * never asked a question under these rules (runs asked before the upgrade) answers their newest open run, as before.
 */
async function conversationRun(deps: AnswerDeps, teamId: string, userId: string, messageTs: string) {
  const runId = await runOfLastQuestion(deps.db, teamId, userId, messageTs);
  if (runId !== undefined) return findRun(deps.db, teamId, runId);
  if ((await dmTurnHolder(deps.db, teamId, userId)) !== undefined) return undefined;
  const runs = await openRunsOfMember(deps.db, teamId, userId, deps.clock.now());
  return runs.find((r) => r.participantStatus === "asked");
}

/**
 * Answering in the DM, one question at a time: each message answers the next open question of the run whose question
 * was asked last before it, in the order of the messages (`messageTs`, Slack's ts); after the last one the response is
 * submitted. `skip` skips that run; either way the member's next waiting standup then takes the DM.
 */
export async function answerInConversation(
  deps: AnswerDeps,
  teamId: string,
  userId: string,
  text: string,
  messageTs: string,
): Promise<ConversationReply> {
  const trimmed = text.trim();
  const run = await conversationRun(deps, teamId, userId, messageTs);
  if (!run) return { kind: "none" };
  const p = await findParticipant(deps.db, run.id, userId);
  // A run whose window closed still takes the member's answers late, until the standup asks them again.
  if (p?.status !== "asked" || (await answerWindow(deps, run, p)) === "closed") {
    // Over for them (answered, skipped, closed): a standup waiting for the DM gets it now.
    const waiting = await hasOtherOpenAsk(deps.db, teamId, userId, run.id, deps.clock.now());
    if (waiting) await handOverIfWaiting(deps, teamId, userId, run.id);
    if (p?.status === "asked") return { kind: "closed" };
    return waiting ? { kind: "handed_over" } : { kind: "none" };
  }
  if (/^skip[.!]?$/i.test(trimmed)) {
    await skipRun(deps, teamId, run.id, userId);
    return { kind: "skipped" };
  }
  if (trimmed.length > MAX_ANSWER_LENGTH) return { kind: "too_long" };
  const total = run.questions.length;
  // Append in SQL, not read-append-write: of two messages sent a few milliseconds apart, both count.
  const draft = await appendDraftAnswer(deps.db, run.id, userId, { ts: messageTs, text: trimmed }, total);
  // Nothing appended: the member was answered or skipped meanwhile, or the draft was already complete.
  if (!draft) return { kind: "none" };
  if (draft.length < total) {
    const named = await hasOtherOpenAsk(deps.db, teamId, userId, run.id, deps.clock.now());
    const next = { question: run.questions[draft.length]!, index: draft.length, total, runId: run.id };
    return { kind: "next", ...next, ...(named ? { name: await standupName(deps, run) } : {}) };
  }
  // Only the append that completed the draft gets here (or the same message processed again because its submission
  // failed: the draft comes back unchanged), so the response is submitted once.
  const outcome = await submitResponse(deps, { teamId, runId: run.id, userId, answers: draft, mood: null });
  if (!outcome.ok) {
    // A full draft that could not be submitted would swallow every later message: start over instead.
    await updateParticipant(deps.db, run.id, userId, { draft: null });
    return { kind: "closed" };
  }
  return { kind: "done", responseId: outcome.responseId };
}

/** The follow-up question went out in the DM: answers after it belong to its run. */
export async function askedNextQuestion(
  deps: Pick<Deps, "db" | "clock">,
  q: { teamId: string; userId: string; runId: number; index: number },
  ts: string,
): Promise<void> {
  await recordQuestionTs(deps.db, q, ts, deps.clock.now());
}

export async function existingAnswers(deps: Pick<Deps, "db">, runId: number, userId: string) {
  const r = await findResponseOfRun(deps.db, runId, userId);
  return r ? { answers: r.answers, mood: r.mood } : undefined;
}
