/**
 * Typed questions (issue 25). A standup's `questions` stay the list of texts the spec names; `question_details`
 * beside them says, per question, how it is answered. Runs keep the details as they asked them, and a response keeps
 * each typed value in `answer_values` beside the text of every answer in `answers`.
 */

export const QUESTION_TYPES = ["text", "single_choice", "multiple_choice", "number", "yes_no"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 10;
export const MAX_OPTION_LENGTH = 75;

/** One question as stored and as the API shows it in `question_details`. */
export interface QuestionDetail {
  text: string;
  type: QuestionType;
  /** single_choice and multiple_choice: 2–10 option texts, unique. */
  options?: string[];
  /** number: optional bounds, inclusive. */
  min?: number | null;
  max?: number | null;
  /** An answer is needed to submit (default true). */
  required: boolean;
  /** Stored without the member, shown only as aggregates of at least five answers (default false). */
  anonymous: boolean;
}

/**
 * A typed answer: number (number questions), boolean (yes_no), an option's text (single_choice) or the chosen
 * options' texts in the question's order (multiple_choice). Null: a text question, unanswered, or anonymous.
 */
export type AnswerValue = number | boolean | string | string[] | null;

/** Fewer anonymous answers than this are never shown, not even as a count per option. */
export const ANONYMOUS_MIN_ANSWERS = 5;

/** A text question, required and not anonymous: what every question was before types existed. */
export function textQuestion(text: string): QuestionDetail {
  return { text, type: "text", required: true, anonymous: false };
}

/** The details of every question: stored ones where they exist and match, plain required text otherwise. */
export function questionDetailsOf(questions: readonly string[], details: readonly QuestionDetail[] | null | undefined) {
  return questions.map((text, i) => {
    const d = details?.[i];
    return d ? { ...d, text } : textQuestion(text);
  });
}

/** How a typed value reads as text (the answer's text in `answers`, CSV, search, the thread reply). */
export function valueText(value: AnswerValue): string {
  if (value === null) return "";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}
