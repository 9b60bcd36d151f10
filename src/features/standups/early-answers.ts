import { DateTime } from "luxon";
import { type AnswerValue, questionDetailsOf } from "../../contract/questions.ts";
import type { Tx } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { memberTimezone } from "../members/index.ts";
import { listScheduleRows, type ScheduleRow } from "../schedules/index.ts";
import { submitResponse } from "./answers.service.ts";
import {
  earlyAnswersOf,
  findEarlyAnswer,
  lockEarlyAnswer,
  runOnDate,
  upsertEarlyAnswer,
} from "./early-answers.repo.ts";
import { latestRunsForMember } from "./home.repo.ts";
import { standupsOfMember } from "./member-standups.ts";
import { MAX_ANSWER_LENGTH } from "./messages.ts";
import { askZone, awayDates, nextAsk, standupHolidays } from "./own-time.ts";
import { findParticipant } from "./participants.repo.ts";
import { findResponseOfRun, insertAnonymousAnswers } from "./responses.repo.ts";
import { findRun } from "./runs.repo.ts";
import { splitAnswers } from "./typed-answers.ts";

/**
 * Answering ahead (issue 25): from `answer_early_hours` before a member's next ask by a standup (the scheduler's own
 * date: listed days, holidays and the member's time off skipped; their own time for member-timezone standups) they
 * may answer it. The answer waits in `early_answers` for that date; when the run asks them it becomes their response.
 */

const HOUR_MS = 3600_000;

/** A standup's next run for the member and whether it can be answered ahead now. */
export interface EarlyOffer {
  schedule: ScheduleRow;
  localDate: string;
  /** When the member will be asked (their own time for member-timezone standups). */
  askAt: Date;
  opensAt: Date;
  open: boolean;
  /** The member's early answer for that date, when they gave one. */
  answered?: { answers: string[]; answerValues: AnswerValue[] | null; mood: string | null };
}

export interface OfferContext {
  /** The member's Slack timezone. */
  tz: string;
  /** Each schedule's latest run date: a date that already ran is not answered ahead. */
  lastRunDate: ReadonlyMap<string, string>;
  holidays: ReadonlySet<string> | undefined;
}

/**
 * The early-answer offer of each of these standups (null entries left out): two queries whatever their number, for
 * App Home's fixed query count.
 */
export async function earlyOffers(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  userId: string,
  schedules: readonly ScheduleRow[],
  ctx: OfferContext,
): Promise<EarlyOffer[]> {
  const withHours = schedules.filter((s) => s.answerEarlyHours > 0);
  if (withHours.length === 0) return [];
  const now = deps.clock.now();
  const yesterday = DateTime.fromJSDate(now, { zone: "utc" }).minus({ days: 1 }).toISODate()!;
  const [away, given] = await Promise.all([
    awayDates(deps.db, teamId, userId, yesterday),
    earlyAnswersOf(deps.db, teamId, userId, yesterday),
  ]);
  const offers: EarlyOffer[] = [];
  for (const s of withHours) {
    const last = ctx.lastRunDate.get(s.id);
    // A member-timezone run is claimed before the member's own ask: its date is still theirs to answer ahead.
    const ran = (d: string) => last !== undefined && (s.askInMemberTimezone ? d < last : d <= last);
    const zone = askZone(s, ctx.tz);
    const next = nextAsk(s, zone, now, (d) => (ctx.holidays?.has(d) ?? false) || away(d) || ran(d));
    if (!next) continue;
    const opensAt = new Date(next.askAt.getTime() - s.answerEarlyHours * HOUR_MS);
    const early = given.find((g) => g.scheduleId === s.id && g.localDate === next.localDate);
    offers.push({
      schedule: s,
      ...next,
      opensAt,
      open: opensAt.getTime() <= now.getTime(),
      ...(early ? { answered: { answers: early.answers, answerValues: early.answerValues, mood: early.mood } } : {}),
    });
  }
  return offers.sort((a, b) => a.askAt.getTime() - b.askAt.getTime());
}

/**
 * The member's own standups (those of channels they are in, or whose latest run asked them when Slack cannot say)
 * with their offers: what `/upbeat answer` and the early modal work from.
 */
export async function offersForMember(
  deps: Pick<Deps, "db" | "clock" | "chat">,
  teamId: string,
  userId: string,
  onlySchedule?: string,
): Promise<EarlyOffer[]> {
  const now = deps.clock.now();
  const [tz, all, latest, holidays] = await Promise.all([
    memberTimezone(deps, teamId, userId),
    listScheduleRows(deps, teamId),
    latestRunsForMember(deps.db, teamId, userId, now),
    standupHolidays(deps, teamId, now),
  ]);
  const active = all.filter((s) => s.active && (onlySchedule === undefined || s.id === onlySchedule));
  const mine = await standupsOfMember(deps, teamId, userId, active, latest);
  const lastRunDate = new Map(latest.map((r) => [r.scheduleId, r.localDate]));
  return earlyOffers(deps, teamId, userId, mine, { tz, lastRunDate, holidays });
}

export type EarlySaveOutcome =
  | { ok: true; early: boolean }
  | { ok: false; reason: "closed" | "not_participant" | "too_long" | "empty" | "not_found" | "invalid" };

type EarlyKey = { teamId: string; scheduleId: string; userId: string; localDate: string };
type Questions = Pick<ScheduleRow, "questions" | "questionDetails">;

/**
 * Where a save goes, decided under the member's early-answer lock (the conversion takes it too): the run's response
 * once the run asked them, unless their earlier early answer is still to be converted (replacing it keeps its
 * anonymous answers single); else the early row, while the date is open to answer ahead.
 */
async function saveTarget(
  tx: Tx,
  key: EarlyKey,
  offer: EarlyOffer | undefined,
): Promise<{ to: "run"; runId: number } | { to: "early"; questions: Questions } | { to: "closed" }> {
  const run = await runOnDate(tx, key.teamId, key.scheduleId, key.localDate);
  if (run) {
    const participant = await findParticipant(tx, run.id, key.userId);
    if (participant && participant.status !== "pending") {
      const waiting = await findEarlyAnswer(tx, key);
      if (!waiting || (await findResponseOfRun(tx, run.id, key.userId))) return { to: "run", runId: run.id };
      const asked = await findRun(tx, key.teamId, run.id);
      if (asked) return { to: "early", questions: asked };
    }
  }
  if (offer?.open) return { to: "early", questions: offer.schedule };
  return run ? { to: "run", runId: run.id } : { to: "closed" };
}

/**
 * Stores (or replaces) a member's early answer for a standup's date. Once that run has asked the member the answer
 * goes to the run itself (a modal left open across the start); a date no longer in the window is refused.
 */
export async function saveEarlyAnswer(
  deps: Pick<Deps, "db" | "clock" | "chat" | "queue" | "events">,
  input: {
    teamId: string;
    userId: string;
    scheduleId: string;
    localDate: string;
    answers: string[];
    /** The typed value of each typed question (as the standup modal reads them). */
    values?: (AnswerValue | undefined)[];
    mood: string | null;
  },
): Promise<EarlySaveOutcome> {
  const { teamId, userId, scheduleId, localDate } = input;
  const key = { teamId, scheduleId, userId, localDate };
  const offer = (await offersForMember(deps, teamId, userId, scheduleId)).find((o) => o.localDate === localDate);
  const saved = await deps.db.transaction(async (tx): Promise<EarlySaveOutcome | { runId: number }> => {
    await lockEarlyAnswer(tx, key);
    const target = await saveTarget(tx, key, offer);
    if (target.to === "closed") return { ok: false, reason: "closed" };
    if (target.to === "run") return { runId: target.runId };
    // Typed and anonymous questions as the standup asks them now (the run copies the same details when it starts).
    const split = splitAnswers(target.questions, input.answers, input.values);
    if (split.invalid !== undefined) return { ok: false, reason: "invalid" };
    const answers = split.texts;
    const anonymousTexts = split.anonymous.flatMap((a) => (typeof a.value === "string" ? [a.value] : []));
    if ([...answers, ...anonymousTexts].some((a) => a.length > MAX_ANSWER_LENGTH))
      return { ok: false, reason: "too_long" };
    if (answers.every((a) => a === "") && split.anonymous.length === 0 && !(await findEarlyAnswer(tx, key)))
      return { ok: false, reason: "empty" };
    const first = await upsertEarlyAnswer(
      tx,
      {
        ...key,
        answers,
        answerValues: split.values,
        mood: input.mood,
        questions: questionDetailsOf(target.questions.questions, target.questions.questionDetails),
      },
      deps.clock.now(),
    );
    // Anonymous answers are stored without the member at once, with the first early answer only (never on edits):
    // the early row keeps null in their place, so the run's response adds none when it is made from it.
    if (first) await insertAnonymousAnswers(tx, { teamId, scheduleId, standupDate: localDate }, split.anonymous);
    return { ok: true, early: true };
  });
  if (!("runId" in saved)) return saved;
  // Outside the lock: with the run's answer there (or no early answer left), a conversion has nothing to take.
  const outcome = await submitResponse(deps, {
    teamId,
    runId: saved.runId,
    userId,
    answers: input.answers,
    ...(input.values ? { values: input.values } : {}),
    mood: input.mood,
  });
  return outcome.ok ? { ok: true, early: false } : { ok: false, reason: outcome.reason };
}
