import type { LabelledAnswer, StandupResponse } from "../../contract/index.ts";
import type { AnswerValue, QuestionDetail } from "../../contract/questions.ts";
import type { Deps } from "../../deps.ts";
import { displayName, standupChannelNames } from "../schedules/index.ts";

/**
 * A response as the queries read it: the answers next to the questions of the run that asked them (never the
 * schedule's current questions, so editing a standup does not relabel old answers), and the schedule's name.
 */
export interface ResponseRecord {
  user_id: string;
  real_name: string;
  standup_date: string;
  schedule_id: string;
  /** The schedule's own name ('' when it has none). */
  schedule_name: string;
  channel_id: string;
  /** The run's questions, as asked. */
  questions: string[] | null;
  answers: string[] | null;
  /** The run's question types as asked; null: all free text. */
  question_details?: QuestionDetail[] | null;
  /** Each typed value (null for text, unanswered and anonymous questions); null when the run had no types. */
  answer_values?: AnswerValue[] | null;
  /** The run's blocker question (1-based), null: none. */
  blocker_question: number | null;
  yesterday: string;
  today: string;
  blockers: string;
  mood: string;
  has_blocker: boolean;
  submitted_at: string;
  /** Given after the member's window closed. */
  late: boolean;
  /** 'mcp' when an AI client gave it (the latest writer); null or absent: Slack. */
  via?: string | null;
}

/** Whether the run asked question `i` anonymously: its answer is never shown beside a member. */
export function isAnonymous(details: readonly QuestionDetail[] | null | undefined, i: number): boolean {
  return Array.isArray(details) && details[i]?.anonymous === true;
}

/**
 * Each answer with its question, in order; a question left unanswered shows an empty answer. An anonymous question's
 * answer is stored as "" already; it is blanked here as well, so no row by person can ever carry one.
 */
export function labelAnswers(
  questions: readonly string[] | null | undefined,
  answers: readonly unknown[] | null | undefined,
  details?: readonly QuestionDetail[] | null,
): LabelledAnswer[] {
  const qs = questions ?? [];
  const as = answers ?? [];
  return Array.from({ length: Math.max(qs.length, as.length) }, (_, i) => {
    const question = qs[i] || `Question ${i + 1}`;
    if (isAnonymous(details, i)) return { question, answer: "", anonymous: true as const };
    return { question, answer: typeof as[i] === "string" ? (as[i] as string) : "" };
  });
}

/** The typed values beside `answers`, one per answer; null for an anonymous question whatever is stored. */
export function presentValues(r: Pick<ResponseRecord, "answer_values" | "question_details">): AnswerValue[] | null {
  if (!Array.isArray(r.answer_values)) return null;
  return r.answer_values.map((v, i) => (isAnonymous(r.question_details, i) ? null : (v ?? null)));
}

/** Channel names for unnamed standups' "#<channel> standup", when the caller can ask Slack (cached); else none. */
export async function namesFor(deps: Partial<Pick<Deps, "chat" | "clock" | "db">>, teamId: string) {
  if (!deps.chat || !deps.clock || !deps.db) return undefined;
  return standupChannelNames({ chat: deps.chat, clock: deps.clock, db: deps.db }, teamId);
}

/** The response object every view shows: the spec's fields, then the standup and every labelled answer. */
export function presentResponse(r: ResponseRecord, channels?: ReadonlyMap<string, string>): StandupResponse {
  return {
    user_id: r.user_id,
    real_name: r.real_name,
    standup_date: r.standup_date,
    schedule_id: r.schedule_id,
    standup_name: displayName({ name: r.schedule_name, channelId: r.channel_id }, channels),
    yesterday: r.yesterday,
    today: r.today,
    blockers: r.blockers,
    mood: r.mood,
    has_blocker: r.has_blocker,
    blocker_question: r.blocker_question,
    answers: labelAnswers(r.questions, r.answers, r.question_details),
    answer_values: presentValues(r),
    submitted_at: r.submitted_at,
    late: r.late,
    via: r.via === "mcp" ? "mcp" : null,
  };
}
