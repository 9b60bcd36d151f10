import { isActiveBlocker } from "./blockers.ts";
import { MOODS } from "./messages.ts";

export interface ResponseFields {
  answers: string[];
  yesterday: string;
  today: string;
  blockers: string;
  mood: string | null;
  hasBlocker: boolean;
}

/** The answer to the run's blocker question (1-based; null: the standup has none, so no blocker). */
export function blockerAnswer(blockerQuestion: number | null, answers: readonly string[]): string {
  return blockerQuestion !== null && blockerQuestion >= 1 ? (answers[blockerQuestion - 1] ?? "") : "";
}

/**
 * The stored columns of one member's answers to a run: one trimmed answer per question, the first two
 * also in their own columns, the blocker question's answer as `blockers`, a mood only when it is one of ours,
 * and whether that answer is an active blocker.
 * Submitting and importing history both store answers this way, so the dashboard reads them alike.
 * `isBlocker` is isActiveBlocker, or a cache in front of it for bulk imports.
 */
export function responseFields(
  run: { questions: readonly string[]; blockerQuestion?: number | null },
  answers: readonly string[],
  mood: string | null | undefined,
  isBlocker: (text: string) => boolean = isActiveBlocker,
): ResponseFields {
  const fitted = run.questions.map((_, i) => (answers[i] ?? "").trim());
  // Runs from before blocker questions existed (and imported history without one) used the third answer.
  const blockers = blockerAnswer(run.blockerQuestion === undefined ? 3 : run.blockerQuestion, fitted);
  return {
    answers: fitted,
    yesterday: fitted[0] ?? "",
    today: fitted[1] ?? "",
    blockers,
    mood: mood && (MOODS as readonly string[]).includes(mood) ? mood : null,
    hasBlocker: isBlocker(blockers),
  };
}
