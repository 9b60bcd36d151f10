import type { KnownBlock, PlainTextOption } from "@slack/types";
import { MAX_INPUT_LABEL, MAX_OPTION_TEXT } from "../../chat/block-limits.ts";
import { truncate } from "../../chat/block-text.ts";
import { context } from "../../chat/blocks.ts";
import type { AnswerValue, QuestionDetail } from "../../contract/questions.ts";
import { slackEscape } from "./messages.ts";
import { inRange, parseNumber } from "./typed-answers.ts";

/**
 * The answer modal's input per question type (issue 25) and reading them back from a view_submission. Every input's
 * action_id is `answer` in block `q<i>`, as text questions always were. Choices travel as their index (Slack caps an
 * option's value at 150 characters; the index also survives an option text that Slack would shorten).
 */

export const MAX_ANSWER_LENGTH = 3000;
export const ANONYMOUS_HINT = "Anonymous: stored without your name, shown only when 5 or more answer";
export const ANONYMOUS_LOCKED = "You answered this anonymously; it cannot be changed";
/** A single choice of up to this many options shows as radio buttons, more as a select menu. */
const MAX_RADIO_OPTIONS = 5;

const plain = (text: string) => ({ type: "plain_text" as const, text, emoji: true });
const option = (text: string, value: string): PlainTextOption => ({
  text: plain(truncate(text, MAX_OPTION_TEXT)),
  value,
});

/** The existing answer to one question (an edit): its text and typed value. */
export interface ExistingAnswer {
  text: string;
  value: AnswerValue;
}

function element(d: QuestionDetail, existing: ExistingAnswer | undefined) {
  const options = (d.options ?? []).map((o, j) => option(o, String(j)));
  const chosen = (o: PlainTextOption) => {
    const v = existing?.value;
    const text = d.options?.[Number(o.value)];
    return Array.isArray(v) ? v.includes(text ?? "") : v === text;
  };
  switch (d.type) {
    case "single_choice": {
      const initial = options.find(chosen);
      const type = options.length <= MAX_RADIO_OPTIONS ? ("radio_buttons" as const) : ("static_select" as const);
      return {
        type,
        action_id: "answer",
        ...(type === "static_select" ? { placeholder: plain("Choose one") } : {}),
        options,
        ...(initial ? { initial_option: initial } : {}),
      };
    }
    case "multiple_choice": {
      const initial = options.filter(chosen);
      return {
        type: "checkboxes" as const,
        action_id: "answer",
        options,
        ...(initial.length ? { initial_options: initial } : {}),
      };
    }
    case "number":
      return {
        type: "number_input" as const,
        action_id: "answer",
        is_decimal_allowed: true,
        ...(d.min != null ? { min_value: String(d.min) } : {}),
        ...(d.max != null ? { max_value: String(d.max) } : {}),
        // An answer the bounds have since excluded is not shown: Slack refuses a view whose initial_value is out of range.
        ...(typeof existing?.value === "number" && inRange(d, existing.value)
          ? { initial_value: String(existing.value) }
          : {}),
      };
    case "yes_no": {
      const yesNo = [option("Yes", "yes"), option("No", "no")];
      const initial = typeof existing?.value === "boolean" ? yesNo[existing.value ? 0 : 1] : undefined;
      return {
        type: "radio_buttons" as const,
        action_id: "answer",
        options: yesNo,
        ...(initial ? { initial_option: initial } : {}),
      };
    }
    case "text":
      return {
        type: "plain_text_input" as const,
        action_id: "answer",
        multiline: true,
        max_length: MAX_ANSWER_LENGTH,
        ...(existing?.text ? { initial_value: existing.text } : {}),
      };
  }
}

/**
 * One block per question. `editing`: the member has answered before, so an anonymous question (which kept no link to
 * them) shows as a line saying it cannot be changed.
 */
export function questionBlocks(
  details: readonly QuestionDetail[],
  existing: readonly (ExistingAnswer | undefined)[],
  editing: boolean,
): KnownBlock[] {
  return details.map((d, i): KnownBlock => {
    if (d.anonymous && editing)
      return { ...context(`*${slackEscape(truncate(d.text, 2000))}*\n_${ANONYMOUS_LOCKED}._`), block_id: `q${i}` };
    return {
      type: "input",
      block_id: `q${i}`,
      ...(d.required ? {} : { optional: true }),
      label: plain(truncate(d.text, MAX_INPUT_LABEL)),
      ...(d.anonymous ? { hint: plain(ANONYMOUS_HINT) } : {}),
      element: element(d, d.anonymous ? undefined : existing[i]),
    } as KnownBlock;
  });
}

/** One input's state in a view_submission, for every element type the modal uses. */
export interface InputState {
  value?: string | null;
  selected_option?: { value?: string } | null;
  selected_options?: { value?: string }[] | null;
}

/** What a submitted modal answered: texts of text questions, typed values, and errors by block (Slack shows them). */
export interface ModalAnswers {
  answers: string[];
  values: AnswerValue[];
  errors: Record<string, string>;
}

/** Reads each question's input back; a value that does not fit its question (out of range, unknown option) is an error. */
export function readModalAnswers(
  details: readonly QuestionDetail[],
  state: Record<string, Record<string, InputState> | undefined>,
): ModalAnswers {
  const out: ModalAnswers = { answers: [], values: [], errors: {} };
  details.forEach((d, i) => {
    // An edit shows an anonymous question as a line, not an input: nothing was given for it, and nothing is missing.
    if (d.anonymous && state[`q${i}`] === undefined) {
      out.answers.push("");
      out.values.push(null);
      return;
    }
    const s = state[`q${i}`]?.answer;
    const fail = (message: string) => {
      out.errors[`q${i}`] = message;
    };
    const byIndex = (v: string | undefined) =>
      v !== undefined && /^\d+$/.test(v) ? d.options?.[Number(v)] : undefined;
    let value: AnswerValue = null;
    switch (d.type) {
      case "text":
        out.answers.push(s?.value ?? "");
        out.values.push(null);
        return;
      case "yes_no": {
        const v = s?.selected_option?.value;
        value = v === "yes" ? true : v === "no" ? false : null;
        if (v != null && value === null) fail("Please choose Yes or No.");
        break;
      }
      case "single_choice": {
        const v = s?.selected_option?.value;
        value = byIndex(v) ?? null;
        if (v != null && value === null) fail("Please choose one of the options.");
        break;
      }
      case "multiple_choice": {
        const picked = (s?.selected_options ?? []).map((o) => byIndex(o.value));
        if (picked.some((o) => o === undefined)) fail("Please choose from the options.");
        const chosen = (d.options ?? []).filter((o) => picked.includes(o));
        value = chosen.length > 0 ? chosen : null;
        break;
      }
      case "number": {
        const raw = s?.value?.trim() ?? "";
        const n = raw === "" ? undefined : parseNumber(raw);
        if (raw !== "" && n === undefined) fail("Please enter a number.");
        else if (n !== undefined && !inRange(d, n)) fail(rangeMessage(d));
        value = n ?? null;
        break;
      }
    }
    if (value === null && d.required && !out.errors[`q${i}`]) fail("Please answer this question.");
    out.answers.push("");
    out.values.push(value);
  });
  return out;
}

function rangeMessage(d: QuestionDetail): string {
  if (d.min != null && d.max != null) return `Please enter a number from ${d.min} to ${d.max}.`;
  return d.min != null ? `Please enter a number of at least ${d.min}.` : `Please enter a number of at most ${d.max}.`;
}
