import { type AnswerValue, type QuestionDetail, questionDetailsOf, valueText } from "../../contract/questions.ts";

/**
 * Typed answers (issue 25) as members give them: parsing a DM reply against its question, the words that tell a member
 * how to answer, and how one submission splits into what the response row keeps (texts, typed values) and what is kept
 * without the member (anonymous answers).
 */

/** The run's questions with their details: plain required text where the run has none (runs before issue 25). */
export function runQuestions(run: { questions: readonly string[]; questionDetails?: QuestionDetail[] | null }) {
  return questionDetailsOf(run.questions, run.questionDetails);
}

/** Lower case, without accents or surrounding space: "Café " and "cafe" are the same answer. */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").trim().toLowerCase();
}

/**
 * "3", "3.5", "3,5" or "3,25" (a decimal comma, as much of Europe writes it: exactly one comma, 1–2 digits after it,
 * no dot), or "1,000" / "12,345.5" (commas grouping thousands, read without them); undefined when it is not a number.
 * Any other comma ("1,0000", "1,2,3") is refused, so the question is asked again instead of a guess being stored.
 */
export function parseNumber(text: string): number | undefined {
  const raw = text.trim();
  const t = /^[-+]?\d+,\d{1,2}$/.test(raw)
    ? raw.replace(",", ".")
    : /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(raw)
      ? raw.replaceAll(",", "")
      : raw;
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

export function inRange(d: Pick<QuestionDetail, "min" | "max">, n: number): boolean {
  return (d.min == null || n >= d.min) && (d.max == null || n <= d.max);
}

/** An option by its text or by its 1-based number in the list. */
function matchOption(options: readonly string[], text: string): string | undefined {
  const wanted = fold(text);
  const byText = options.find((o) => fold(o) === wanted);
  if (byText !== undefined) return byText;
  if (!/^\d+$/.test(wanted)) return undefined;
  return options[Number(wanted) - 1];
}

/** Leaves an optional question blank in the DM. */
export const BLANK_ANSWER = "-";

export type ParsedAnswer = { ok: true; text: string; value: AnswerValue } | { ok: false };

/**
 * One DM reply to one question. A text question takes any text; the others only a valid choice, number or yes/no.
 * `-` leaves an optional question blank. The value of a text question is its text (the caller decides where it goes).
 */
export function parseDmAnswer(d: QuestionDetail, raw: string): ParsedAnswer {
  const text = raw.trim();
  if (!d.required && text === BLANK_ANSWER) return { ok: true, text: "", value: null };
  if (text === "") return { ok: false };
  switch (d.type) {
    case "text":
      return { ok: true, text, value: text };
    case "yes_no": {
      const f = fold(text);
      if (f === "yes" || f === "y") return { ok: true, text: "Yes", value: true };
      if (f === "no" || f === "n") return { ok: true, text: "No", value: false };
      return { ok: false };
    }
    case "number": {
      const n = parseNumber(text);
      return n !== undefined && inRange(d, n) ? { ok: true, text: valueText(n), value: n } : { ok: false };
    }
    case "single_choice": {
      const o = matchOption(d.options ?? [], text);
      return o === undefined ? { ok: false } : { ok: true, text: o, value: o };
    }
    case "multiple_choice": {
      const options = d.options ?? [];
      // An option whose own text has a comma is still one choice when the reply is exactly that option.
      const whole = matchOption(options, text);
      const picked = whole !== undefined ? [whole] : text.split(",").map((part) => matchOption(options, part));
      if (picked.some((o) => o === undefined)) return { ok: false };
      // In the question's order, each once.
      const value = options.filter((o) => picked.includes(o));
      return { ok: true, text: valueText(value), value };
    }
  }
}

/** How to answer a typed or optional question in the DM; "" for a required text question (as before types). */
export function answerHint(d: QuestionDetail): string {
  const options = (d.options ?? []).map((o, i) => `${i + 1}. ${o}`).join(", ");
  const how =
    d.type === "single_choice"
      ? `Reply with one of: ${options}`
      : d.type === "multiple_choice"
        ? `Reply with one or more of: ${options} (separated by commas)`
        : d.type === "number"
          ? numberHint(d)
          : d.type === "yes_no"
            ? "Reply yes or no"
            : "";
  const parts = [how, d.required ? "" : `Optional: reply \`${BLANK_ANSWER}\` to leave it blank`];
  if (d.anonymous) parts.push("Anonymous: stored without your name");
  return parts.filter(Boolean).join(". ");
}

function numberHint(d: QuestionDetail): string {
  if (d.min != null && d.max != null) return `Reply with a number from ${d.min} to ${d.max}`;
  if (d.min != null) return `Reply with a number of at least ${d.min}`;
  if (d.max != null) return `Reply with a number of at most ${d.max}`;
  return "Reply with a number";
}

/** Whether a typed value fits its question: an option of it, a number in range, a boolean for yes/no. */
export function validValue(d: QuestionDetail, v: AnswerValue): boolean {
  if (v === null) return true;
  switch (d.type) {
    case "text":
      return typeof v === "string";
    case "yes_no":
      return typeof v === "boolean";
    case "number":
      return typeof v === "number" && Number.isFinite(v) && inRange(d, v);
    case "single_choice":
      return typeof v === "string" && (d.options ?? []).includes(v);
    case "multiple_choice":
      return Array.isArray(v) && v.length > 0 && v.every((o) => (d.options ?? []).includes(o));
  }
}

/** What one submission stores: the texts and typed values of the response row, and the anonymous answers apart. */
export interface SplitAnswers {
  texts: string[];
  values: AnswerValue[] | null;
  anonymous: { questionIndex: number; value: AnswerValue }[];
  /** The first question whose value does not fit it; undefined when all do. */
  invalid?: number;
}

/**
 * `answers`: the text given per question (text questions); `values`: the typed value per question (typed questions;
 * absent or null: unanswered). Anonymous answers never reach the row: their text is "" and their value null there.
 */
export function splitAnswers(
  run: { questions: readonly string[]; questionDetails?: QuestionDetail[] | null },
  answers: readonly string[],
  values: readonly (AnswerValue | undefined)[] | undefined,
): SplitAnswers {
  const details = runQuestions(run);
  const out: SplitAnswers = { texts: [], values: run.questionDetails ? [] : null, anonymous: [] };
  details.forEach((d, i) => {
    const value: AnswerValue = d.type === "text" ? (answers[i] ?? "").trim() || null : (values?.[i] ?? null);
    if (!validValue(d, value) && out.invalid === undefined) out.invalid = i;
    if (d.anonymous) {
      if (value !== null) out.anonymous.push({ questionIndex: i, value });
      out.texts.push("");
      out.values?.push(null);
      return;
    }
    out.texts.push(d.type === "text" ? ((value as string | null) ?? "") : valueText(value));
    out.values?.push(d.type === "text" ? null : value);
  });
  return out;
}
