import { z } from "zod";
import type { AnswerValue } from "../contract/questions.ts";
import { answerHint, MOODS, parseDmAnswer, type RunRow, runQuestions } from "../features/standups/index.ts";
import { ToolError } from "./tool-kit.ts";

/**
 * How submit_standup reads answers: by question order or by question text, each as the member would type it in the DM
 * (an option's text or number, a number, yes or no), parsed by the DM's own parser so both accept the same answers.
 */

const answerValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const answersArg = () =>
  z
    .union([z.array(answerValue).min(1).max(50), z.record(z.string(), answerValue)])
    .describe(
      "The answers: an array in question order, or an object whose keys are the question texts. A choice question " +
        "takes an option's text or number, several options separated by commas; a number question a number; a " +
        'yes/no question yes or no. "-" or "" leaves an optional question blank. To edit, an object may name only ' +
        "the answers to change (the others stay as they were); an array replaces every answer.",
    );

export type GivenAnswers = z.output<ReturnType<typeof answersArg>>;

/** "Café " and "cafe" name the same question. */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").trim().toLowerCase();
}

function asText(v: z.output<typeof answerValue>): string {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.join(", ");
  return String(v);
}

function questionList(run: Pick<RunRow, "questions">): string {
  return run.questions.map((q, i) => `${i + 1}. "${q}"`).join(", ");
}

/** The raw text given per question, in question order (undefined: not given). */
function byQuestion(run: Pick<RunRow, "questions">, given: GivenAnswers): (string | undefined)[] {
  const qs = run.questions;
  if (Array.isArray(given)) {
    if (given.length > qs.length) {
      throw new ToolError(
        `${given.length} answers for ${qs.length} questions; the questions are ${questionList(run)}.`,
      );
    }
    return qs.map((_, i) => (given[i] === undefined ? undefined : asText(given[i]!)));
  }
  const raw: (string | undefined)[] = qs.map(() => undefined);
  for (const [key, value] of Object.entries(given)) {
    const i = qs.findIndex((q) => fold(q) === fold(key));
    if (i < 0)
      throw new ToolError(`"${key}" is not a question of this standup; its questions are ${questionList(run)}.`);
    raw[i] = asText(value);
  }
  return raw;
}

export interface ParsedSubmission {
  answers: string[];
  values: (AnswerValue | undefined)[];
}

/**
 * The texts and typed values submitResponse takes. A typed answer that does not fit says which question and how to
 * answer it; a required question left out is refused as the modal refuses it (an anonymous one only the first time:
 * it cannot be changed afterwards).
 */
export function parseSubmission(
  run: Pick<RunRow, "questions" | "questionDetails">,
  given: GivenAnswers,
  /** The member's stored answer when this is an edit: an object naming some questions keeps the others. */
  previous: { answers: string[]; answerValues: (AnswerValue | null)[] | null } | undefined,
): ParsedSubmission {
  const editing = previous !== undefined;
  const raw = byQuestion(run, given);
  const out: ParsedSubmission = { answers: [], values: [] };
  const keepOthers = editing && !Array.isArray(given);
  runQuestions(run).forEach((d, i) => {
    const question = run.questions[i]!;
    if (keepOthers && raw[i] === undefined) {
      // Not named in this edit: the stored answer stays (an anonymous one is not in the row and cannot change).
      out.answers.push(previous.answers[i] ?? "");
      out.values.push(d.type === "text" ? undefined : (previous.answerValues?.[i] ?? null));
      return;
    }
    const text = (raw[i] ?? "").trim();
    const blank = text === "" || text === "-";
    if (blank && d.required && !(d.anonymous && editing)) {
      throw new ToolError(`"${question}" is required${d.type === "text" ? "" : `: ${answerHint(d)}`}.`);
    }
    if (d.type === "text") {
      out.answers.push(blank ? "" : text);
      out.values.push(undefined);
      return;
    }
    out.answers.push("");
    if (blank) {
      out.values.push(null);
      return;
    }
    const parsed = parseDmAnswer(d, text);
    if (!parsed.ok) throw new ToolError(`"${text}" does not answer "${question}". ${answerHint(d)}.`);
    out.values.push(parsed.value);
  });
  return out;
}

export const moodArg = () =>
  z
    .string()
    .nullable()
    .optional()
    .describe(`The mood, one of ${MOODS.join(" ")}; null clears it; left out, an edit keeps the mood it had.`);

export function checkMood(mood: string | null | undefined): void {
  if (mood && !(MOODS as readonly string[]).includes(mood)) {
    throw new ToolError(`mood must be one of ${MOODS.join(" ")} (or null).`);
  }
}
