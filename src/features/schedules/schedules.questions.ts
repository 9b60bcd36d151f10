import {
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MIN_OPTIONS,
  QUESTION_TYPES,
  type QuestionDetail,
  type QuestionType,
} from "../../contract/questions.ts";

/**
 * One item of `questions` in a POST or PUT body: a string (a required text question, as before types existed) or
 * an object with a type. Each message names the item (`questions[2].options …`) so the 400 says what to fix.
 */

export const MAX_QUESTION_LENGTH = 300;
const CHOICE_TYPES: readonly QuestionType[] = ["single_choice", "multiple_choice"];
const OPTIONS_MESSAGE = `options must be ${MIN_OPTIONS} to ${MAX_OPTIONS} distinct texts of at most ${MAX_OPTION_LENGTH} characters`;

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

/** A bound of a number question: a finite number, or null/absent for none. */
function boundOf(value: unknown): number | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function parseQuestion(item: unknown, i: number): Parsed {
  const at = `questions[${i}]`;
  const fail = (message: string): Parsed => ({ ok: false, message });
  if (typeof item === "string") {
    const text = questionText(item, at);
    if (typeof text !== "string") return fail(text.problem);
    return { ok: true, detail: { text, type: "text", required: true, anonymous: false } };
  }
  if (!isRecord(item)) return fail(`${at} must be a string or an object with a text`);
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
    if (min === undefined) return fail(`${at}.min must be a number or null`);
    if (max === undefined) return fail(`${at}.max must be a number or null`);
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

/** The blocker question's answer is a line of text tied to a member: a text question that is not anonymous. */
export function canBeBlockerQuestion(d: QuestionDetail | undefined): boolean {
  return d !== undefined && d.type === "text" && !d.anonymous;
}
