import {
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MIN_OPTIONS,
  QUESTION_TYPES,
  type QuestionDetail,
  type QuestionType,
  questionDetailsOf,
} from "../../contract/questions.ts";
import { badRequest } from "../../http/errors.ts";

/**
 * One item of `questions` in a POST or PUT body: a string (a required text question, as before types existed) or
 * an object with a type. Each message names the item (`questions[2].options …`) so the 400 says what to fix.
 */

export const MAX_QUESTION_LENGTH = 300;
const CHOICE_TYPES: readonly QuestionType[] = ["single_choice", "multiple_choice"];
const OPTIONS_MESSAGE = `options must be ${MIN_OPTIONS} to ${MAX_OPTIONS} distinct texts of at most ${MAX_OPTION_LENGTH} characters`;

/** What `questions` or `question_details` in a body parse to: every question in full, and whether all were strings. */
export interface QuestionList {
  details: QuestionDetail[];
  /** Every item was a string: a client sending back the texts it read (see givenQuestions). */
  strings: boolean;
}

type Parsed = { ok: true; detail: QuestionDetail } | { ok: false; message: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function questionText(value: unknown, field: string): string | { problem: string } {
  if (typeof value !== "string") return { problem: `${field} must be a string` };
  const text = value.trim();
  if (text === "") return { problem: `${field} must not be empty` };
  if ([...text].length > MAX_QUESTION_LENGTH) {
    return { problem: `${field} must be at most ${MAX_QUESTION_LENGTH} characters` };
  }
  return text;
}

function optionsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length < MIN_OPTIONS || value.length > MAX_OPTIONS) return undefined;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== "string") return undefined;
    const text = item.trim();
    if (text === "" || [...text].length > MAX_OPTION_LENGTH) return undefined;
    // Options are told apart by their text (answers store it), so two that differ only in case would be ambiguous.
    if (out.some((o) => o.toLowerCase() === text.toLowerCase())) return undefined;
    out.push(text);
  }
  return out;
}

/** The largest |min| or |max| of a number question. */
export const MAX_BOUND = 1_000_000_000;
/** Decimal places a bound may have. */
export const MAX_BOUND_DECIMALS = 4;
const BOUND_MESSAGE = `must be a number from -${MAX_BOUND} to ${MAX_BOUND} with at most ${MAX_BOUND_DECIMALS} decimal places, or null`;

/**
 * A bound of a number question, or null/absent for none. Slack's number_input takes bounds as strings and
 * String(1e21) is "1e+21", which it rejects (the modal would not open): within ±1e9 and 4 decimal places, String(x)
 * is always plain digits (anything below 1e-6 has more than 4 places).
 */
function boundOf(value: unknown): number | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) > MAX_BOUND) return undefined;
  return new RegExp(`^-?\\d+(\\.\\d{1,${MAX_BOUND_DECIMALS}})?$`).test(String(value)) ? value : undefined;
}

/**
 * One item of `questions` (`field` "questions": a string or an object) or of `question_details` (an object only:
 * the shape GET shows, sent back as it was read).
 */
export function parseQuestion(item: unknown, i: number, field: "questions" | "question_details" = "questions"): Parsed {
  const at = `${field}[${i}]`;
  const fail = (message: string): Parsed => ({ ok: false, message });
  if (typeof item === "string" && field === "questions") {
    const text = questionText(item, at);
    if (typeof text !== "string") return fail(text.problem);
    return { ok: true, detail: { text, type: "text", required: true, anonymous: false } };
  }
  if (!isRecord(item)) {
    return fail(
      field === "questions" ? `${at} must be a string or an object with a text` : `${at} must be an object with a text`,
    );
  }
  const text = questionText(item.text, `${at}.text`);
  if (typeof text !== "string") return fail(item.text === undefined ? `${at}.text is required` : text.problem);
  const type = item.type ?? "text";
  if (typeof type !== "string" || !(QUESTION_TYPES as readonly string[]).includes(type)) {
    return fail(`${at}.type must be one of ${QUESTION_TYPES.join(", ")}`);
  }
  const kind = type as QuestionType;
  if (item.required !== undefined && typeof item.required !== "boolean") {
    return fail(`${at}.required must be true or false`);
  }
  if (item.anonymous !== undefined && typeof item.anonymous !== "boolean") {
    return fail(`${at}.anonymous must be true or false`);
  }
  const detail: QuestionDetail = {
    text,
    type: kind,
    required: item.required ?? true,
    anonymous: item.anonymous ?? false,
  };

  const choice = CHOICE_TYPES.includes(kind);
  if (choice) {
    const options = optionsOf(item.options);
    if (!options) return fail(`${at}.${OPTIONS_MESSAGE}`);
    detail.options = options;
  } else if (item.options !== undefined && item.options !== null) {
    return fail(`${at}.options is only for single_choice and multiple_choice questions`);
  }

  const hasBounds = (item.min !== undefined && item.min !== null) || (item.max !== undefined && item.max !== null);
  if (kind === "number") {
    const min = boundOf(item.min);
    const max = boundOf(item.max);
    if (min === undefined) return fail(`${at}.min ${BOUND_MESSAGE}`);
    if (max === undefined) return fail(`${at}.max ${BOUND_MESSAGE}`);
    if (min !== null && max !== null && min > max) return fail(`${at}.min must not be greater than ${at}.max`);
    detail.min = min;
    detail.max = max;
  } else if (hasBounds) {
    return fail(`${at}.min and ${at}.max are only for number questions`);
  }
  return { ok: true, detail };
}

/** A required, not anonymous text question: what a plain string means, and what needs no stored details. */
export function isPlainText(d: QuestionDetail): boolean {
  return d.type === "text" && d.required && !d.anonymous;
}

/** What `schedules.question_details` stores: null when every question is plain text, else the whole list. */
export function storedDetails(details: readonly QuestionDetail[]): QuestionDetail[] | null {
  return details.every(isPlainText) ? null : details.map((d) => ({ ...d }));
}

/**
 * The blocker question's answer is a line of text tied to a member: a text question that is not anonymous. It is
 * required too: a blank answer means "no blockers" and resolves the member's open blocker, so an optional question
 * left empty would close a blocker nobody said was gone.
 */
export function canBeBlockerQuestion(d: QuestionDetail | undefined): boolean {
  return d !== undefined && d.type === "text" && !d.anonymous && d.required;
}

/**
 * The questions a POST or PUT body sets, in full, or undefined when it sets none. `question_details` wins over
 * `questions` when both are sent, provided their texts match one by one (a 400 names the first that does not).
 * A PUT whose `questions` are all strings keeps the stored details of every question whose text is unchanged at its
 * place: a client that reads a standup and sends back the texts it read (to rename it, say) must not turn an
 * anonymous question into one answered by name; a question whose text changed becomes plain text.
 */
export function givenQuestions(
  body: { questions?: QuestionList | undefined; question_details?: QuestionList | undefined },
  current?: { questions: readonly string[]; questionDetails: readonly QuestionDetail[] | null },
): QuestionDetail[] | undefined {
  const { questions, question_details: full } = body;
  if (full && questions) {
    if (full.details.length !== questions.details.length) {
      throw badRequest(
        `question_details must have one item per question (got ${full.details.length} for ${questions.details.length} questions)`,
      );
    }
    const i = full.details.findIndex((d, j) => d.text !== questions.details[j]!.text);
    if (i >= 0) throw badRequest(`question_details[${i}].text must equal questions[${i}]`);
  }
  if (full) return full.details;
  if (!questions) return undefined;
  if (!current || !questions.strings) return questions.details;
  const stored = questionDetailsOf(current.questions, current.questionDetails);
  return questions.details.map((d, i) => (stored[i]?.text === d.text ? { ...stored[i]! } : d));
}
