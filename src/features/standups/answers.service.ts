import type { AnswerValue } from "../../contract/questions.ts";
import type { Tx } from "../../db/client.ts";
import type { AnswerVia } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { resolveTicked } from "./blocker-actions.ts";
import { trackBlocker } from "./blocker-items.ts";
import { readDraft, takeAnonymousAnswers } from "./dm-anonymous.ts";
import { dmTurnHolder, hasOtherOpenAsk, recordQuestionTs, runOfLastQuestion } from "./dm-conversation.repo.ts";
import { handOverIfWaiting, standupName } from "./dm-conversation.ts";
import { appendDraftAnswer, lockDraft, removeDraftAnswer } from "./drafts.repo.ts";
import type { StandupResponseEvent } from "./events.ts";
import { MAX_ANSWER_LENGTH } from "./messages.ts";
import { answerWindow } from "./own-time.ts";
import { findParticipant, openRunsOfMember, type ParticipantRow, updateParticipant } from "./participants.repo.ts";
import { responseFields } from "./response-fields.ts";
import { claimBlockerReported, findResponseOfRun, insertAnonymousAnswers, upsertResponse } from "./responses.repo.ts";
import { findRun } from "./runs.repo.ts";
import { answerHint, runQuestions, splitAnswers } from "./typed-answers.ts";

export type SubmitOutcome =
  | { ok: true; responseId: number; created: boolean }
  | { ok: false; reason: "not_found" | "closed" | "not_participant" | "too_long" | "empty" }
  /** A typed value that does not fit its question (0-based): an unknown option, a number out of range. */
  | { ok: false; reason: "invalid"; question: number };

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
  input: {
    teamId: string;
    runId: number;
    userId: string;
    /** The text of each text question's answer. */
    answers: string[];
    /** The typed value of each typed question's answer (absent or null: unanswered). */
    values?: (AnswerValue | undefined)[];
    mood: string | null;
    /** The modal's "Resolved" ticked for this open blocker of the member's: resolved before the answer is tracked. */
    resolveBlockerId?: number;
    /** The DM conversation already took an anonymous answer apart (drafts): the response is not empty. */
    anonymousGiven?: boolean;
    /** Where the answer came from when not from Slack ('mcp'): the latest writer sets it, so a Slack edit clears it. */
    via?: AnswerVia | null;
  },
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
  const split = splitAnswers(run, input.answers, input.values);
  if (split.invalid !== undefined) return { ok: false, reason: "invalid", question: split.invalid };
  const fields = responseFields(run, split.texts, input.mood);
  const anonymousTexts = split.anonymous.flatMap((a) => (typeof a.value === "string" ? [a.value] : []));
  if ([...fields.answers, ...anonymousTexts].some((a) => a.length > MAX_ANSWER_LENGTH))
    return { ok: false, reason: "too_long" };
  // An edit of a response whose only answers were anonymous has nothing to change but the mood: that is no empty answer.
  const onlyAnonymousBefore = () =>
    (run.questionDetails ?? []).some((d) => d.anonymous)
      ? findResponseOfRun(deps.db, run.id, input.userId).then((r) => r !== undefined)
      : Promise.resolve(false);
  const noAnonymous = split.anonymous.length === 0 && !input.anonymousGiven;
  if (fields.answers.every((a) => a === "") && noAnonymous && !(await onlyAnonymousBefore()))
    return { ok: false, reason: "empty" };
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
        answerValues: split.values,
        // Only a first submission sets it: an edit keeps the flag the response was given.
        late: window === "late",
        via: input.via ?? null,
      },
      now,
    );
    // Anonymous answers are kept once, from the first submission, in its transaction: never with the member. A late
    // one is not kept, so the totals of a closed run (the only ones shown) never change afterwards.
    if (saved.created && window !== "late") {
      // Those the DM conversation already stored apart (its marker in the draft) are not stored twice, whatever
      // the modal sends for them.
      const given = new Set((await lockDraft(tx, run.id, input.userId)).map((e) => e.anonymous));
      await insertAnonymousAnswers(
        tx,
        { teamId: run.teamId, scheduleId: run.scheduleId, standupDate: run.localDate },
        split.anonymous.filter((a) => !given.has(a.questionIndex)),
      );
    }
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
    // First, so a new blocker in this answer opens a new item instead of renaming the one just resolved.
    if (input.resolveBlockerId !== undefined) {
      await resolveTicked(deps, tx, {
        teamId: run.teamId,
        blockerId: input.resolveBlockerId,
        userId: input.userId,
        at: now,
      });
    }
    // A standup without a blocker question tracks none (and never resolves one by its answers).
    if (run.blockerQuestion !== null) {
      await trackBlocker(deps, tx, {
        teamId: run.teamId,
        scheduleId: run.scheduleId,
        userId: input.userId,
        responseId: saved.id,
        standupDate: run.localDate,
        text: fields.blockers,
        hasBlocker: fields.hasBlocker,
        at: now,
      });
    }
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
  | { kind: "next"; question: string; index: number; total: number; runId: number; name?: string; hint?: string }
  /** The answer did not fit its typed question: it is asked again, with how to answer it. */
  | { kind: "invalid"; question: string; index: number; total: number; runId: number; name?: string; hint: string }
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
  const window = p?.status === "asked" ? await answerWindow(deps, run, p) : "closed";
  if (p?.status !== "asked" || window === "closed") {
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
  const details = runQuestions(run);
  // Append in SQL, not read-append-write: of two messages sent a few milliseconds apart, both count. An anonymous
  // answer leaves the draft for anonymous_answers in the same transaction, and only when this message was appended
  // now (a replayed Slack event finds its message in the draft and stores nothing again).
  const draft = await deps.db.transaction(async (tx) => {
    const appended = !(await lockDraft(tx, run.id, userId)).some((e) => e.ts === messageTs);
    const after = await appendDraftAnswer(tx, run.id, userId, { ts: messageTs, text: trimmed }, total);
    if (!after || !appended) return after;
    return takeAnonymousAnswers(tx, run, userId, details, after, window !== "late");
  });
  // Nothing appended: the member was answered or skipped meanwhile, or the draft was already complete.
  if (!draft) return { kind: "none" };
  const named = async () =>
    (await hasOtherOpenAsk(deps.db, teamId, userId, run.id, deps.clock.now()))
      ? { name: await standupName(deps, run) }
      : {};
  // Every answer checked against the question at its place (messages sent moments apart may have moved it there): one
  // that does not fit is taken out again and its question asked again, so no bad value is ever submitted.
  const { placed, parsed } = readDraft(draft, details);
  const bad = parsed.findIndex((p) => p !== undefined && !p.ok);
  if (bad >= 0) {
    const entry = placed[bad]!;
    if (entry.ts !== null) await removeDraftAnswer(deps.db, run.id, userId, entry.ts);
    const q = { question: run.questions[bad]!, index: bad, total, runId: run.id, hint: answerHint(details[bad]!) };
    return { kind: "invalid", ...q, ...(await named()) };
  }
  // The first question without an answer (an anonymous one stored keeps its place while others are asked again).
  const open = parsed.indexOf(undefined);
  if (open >= 0) {
    const hint = answerHint(details[open]!);
    const next = { question: run.questions[open]!, index: open, total, runId: run.id };
    return { kind: "next", ...next, ...(hint ? { hint } : {}), ...(await named()) };
  }
  // Only the append that completed the draft gets here (or the same message processed again because its submission
  // failed: the draft comes back unchanged), so the response is submitted once.
  const answers = parsed.map((p, i) => (p?.ok && details[i]!.type === "text" ? p.text : ""));
  const values = parsed.map((p, i) => (p?.ok && details[i]!.type !== "text" ? p.value : null));
  const anonymousGiven = placed.some((e) => e?.anonymous !== undefined);
  const outcome = await submitResponse(deps, {
    teamId,
    runId: run.id,
    userId,
    answers,
    values,
    mood: null,
    anonymousGiven,
  });
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
  return r ? { answers: r.answers, answerValues: r.answerValues, mood: r.mood } : undefined;
}
