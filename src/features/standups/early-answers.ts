import { DateTime } from "luxon";
import type { AnswerValue } from "../../contract/questions.ts";
import type { Deps } from "../../deps.ts";
import { memberTimezone } from "../members/index.ts";
import { listScheduleRows, participantsByChannel, type ScheduleRow } from "../schedules/index.ts";
import { submitResponse } from "./answers.service.ts";
import {
  earlyAnswersOf,
  findEarlyAnswer,
  runOnDate,
  takeEarlyAnswer,
  upsertEarlyAnswer,
} from "./early-answers.repo.ts";
import { latestRunsForMember } from "./home.repo.ts";
import { MAX_ANSWER_LENGTH } from "./messages.ts";
import { askZone, awayDates, nextAsk, standupHolidays } from "./own-time.ts";
import { findResponseOfRun, insertAnonymousAnswers } from "./responses.repo.ts";
import type { RunRow } from "./runs.repo.ts";
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
  const members = await participantsByChannel(
    deps,
    teamId,
    active.map((s) => s.channelId),
  );
  const latestOf = new Map(latest.map((r) => [r.scheduleId, r]));
  const mine = active.filter((s) => {
    const inChannel = members.get(s.channelId);
    return inChannel ? inChannel.includes(userId) : latestOf.get(s.id)?.status != null;
  });
  const lastRunDate = new Map(latest.map((r) => [r.scheduleId, r.localDate]));
  return earlyOffers(deps, teamId, userId, mine, { tz, lastRunDate, holidays });
}

export type EarlySaveOutcome =
  | { ok: true; early: boolean }
  | { ok: false; reason: "closed" | "not_participant" | "too_long" | "empty" | "not_found" | "invalid" };

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
  const offer = (await offersForMember(deps, teamId, userId, scheduleId)).find((o) => o.localDate === localDate);
  if (!offer?.open) {
    const run = await runOnDate(deps.db, teamId, scheduleId, localDate);
    if (!run) return { ok: false, reason: "closed" };
    const outcome = await submitResponse(deps, {
      teamId,
      runId: run.id,
      userId,
      answers: input.answers,
      ...(input.values ? { values: input.values } : {}),
      mood: input.mood,
    });
    return outcome.ok ? { ok: true, early: false } : { ok: false, reason: outcome.reason };
  }
  // Typed and anonymous questions as the standup asks them now (the run copies the same details when it starts).
  const split = splitAnswers(offer.schedule, input.answers, input.values);
  if (split.invalid !== undefined) return { ok: false, reason: "invalid" };
  const answers = split.texts;
  const anonymousTexts = split.anonymous.flatMap((a) => (typeof a.value === "string" ? [a.value] : []));
  if ([...answers, ...anonymousTexts].some((a) => a.length > MAX_ANSWER_LENGTH))
    return { ok: false, reason: "too_long" };
  if (answers.every((a) => a === "") && split.anonymous.length === 0 && !offer.answered)
    return { ok: false, reason: "empty" };
  await deps.db.transaction(async (tx) => {
    const first = await upsertEarlyAnswer(
      tx,
      { teamId, scheduleId, userId, localDate, answers, answerValues: split.values, mood: input.mood },
      deps.clock.now(),
    );
    // Anonymous answers are stored without the member at once, with the first early answer only (never on edits):
    // the early row keeps null in their place, so the run's response adds none when it is made from it.
    if (first) await insertAnonymousAnswers(tx, { teamId, scheduleId, standupDate: localDate }, split.anonymous);
  });
  return { ok: true, early: true };
}

class TakenElsewhere extends Error {}

/**
 * When a run asks a member who answered it ahead, the early answer becomes their response through `submitResponse`
 * (thread reply, events, webhooks and rules once). The early row is deleted in the response's transaction, so under
 * two instances only one conversion commits. Returns the member's response for the run (made now or already there).
 * The ask job checks the participant first: a retried ask whose conversion committed finds them `answered`.
 */
export async function convertEarlyAnswer(
  deps: Pick<Deps, "db" | "clock" | "queue" | "events">,
  run: Pick<RunRow, "id" | "teamId" | "scheduleId" | "localDate">,
  userId: string,
): Promise<number | undefined> {
  const key = { teamId: run.teamId, scheduleId: run.scheduleId, userId, localDate: run.localDate };
  const early = await findEarlyAnswer(deps.db, key);
  if (!early) return undefined;
  const answered = await findResponseOfRun(deps.db, run.id, userId);
  if (answered) {
    // Answered the run itself meanwhile: that answer stands.
    await takeEarlyAnswer(deps.db, key);
    return answered.id;
  }
  try {
    const outcome = await submitResponse(
      deps,
      {
        teamId: run.teamId,
        runId: run.id,
        userId,
        answers: early.answers,
        ...(early.answerValues ? { values: early.answerValues } : {}),
        mood: early.mood,
      },
      async (tx) => {
        if (!(await takeEarlyAnswer(tx, key))) throw new TakenElsewhere();
      },
    );
    return outcome.ok ? outcome.responseId : undefined;
  } catch (err) {
    if (err instanceof TakenElsewhere) return (await findResponseOfRun(deps.db, run.id, userId))?.id;
    throw err;
  }
}
