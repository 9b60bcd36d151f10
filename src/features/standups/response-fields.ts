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

/**
 * The stored columns of one member's answers to a run: one trimmed answer per question, the first three
 * also in their own columns, a mood only when it is one of ours, and whether the third answer is a blocker.
 * Submitting and importing history both store answers this way, so the dashboard reads them alike.
 * `isBlocker` is isActiveBlocker, or a cache in front of it for bulk imports.
 */
export function responseFields(
  questions: readonly string[],
  answers: readonly string[],
  mood: string | null | undefined,
  isBlocker: (text: string) => boolean = isActiveBlocker,
): ResponseFields {
  const fitted = questions.map((_, i) => (answers[i] ?? "").trim());
  const blockers = fitted[2] ?? "";
  return {
    answers: fitted,
    yesterday: fitted[0] ?? "",
    today: fitted[1] ?? "",
    blockers,
    mood: mood && (MOODS as readonly string[]).includes(mood) ? mood : null,
    hasBlocker: isBlocker(blockers),
  };
}
