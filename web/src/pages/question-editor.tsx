import type { QuestionDetail, QuestionInput, QuestionType } from "../lib/types.ts";

/**
 * One question row of the standup editor: its text, how it is answered (type, options, bounds), whether it is
 * required and anonymous. Limits mirror the server's (schedules.questions.ts); the server says the last word.
 */

export const MAX_QUESTIONS = 10;
export const MAX_QUESTION_LENGTH = 300;
const MIN_OPTIONS = 2;
const MAX_OPTIONS = 10;
const MAX_OPTION_LENGTH = 75;

const TYPE_LABELS: Record<QuestionType, string> = {
  text: "Text",
  single_choice: "Single choice",
  multiple_choice: "Multiple choice",
  number: "Number",
  yes_no: "Yes / No",
};
const TYPES = Object.keys(TYPE_LABELS) as QuestionType[];
const isChoice = (type: QuestionType) => type === "single_choice" || type === "multiple_choice";

export interface Question {
  key: number;
  text: string;
  type: QuestionType;
  /** Choice types: the option texts as typed (kept while the type changes, so switching back loses nothing). */
  options: string[];
  /** Number: the bounds as typed; empty for none. */
  min: string;
  max: string;
  required: boolean;
  anonymous: boolean;
}

let nextKey = 1;

export function toQuestions(texts: readonly string[], details?: readonly QuestionDetail[] | null): Question[] {
  return texts.map((text, i) => {
    const d = details?.[i];
    return {
      key: nextKey++,
      text,
      type: d?.type ?? "text",
      options: d?.options ? [...d.options] : ["", ""],
      min: d?.min === undefined || d.min === null ? "" : String(d.min),
      max: d?.max === undefined || d.max === null ? "" : String(d.max),
      required: d?.required ?? true,
      anonymous: d?.anonymous ?? false,
    };
  });
}

/** The blocker question's answer is a line of text tied to its author: only text questions that are not anonymous. */
export const canBeBlocker = (q: Question | undefined) =>
  q !== undefined && q.type === "text" && q.required && !q.anonymous;

/** What POST and PUT take for this question. */
export function questionInput(q: Question): QuestionInput {
  const out: QuestionInput = { text: q.text.trim(), type: q.type, required: q.required, anonymous: q.anonymous };
  if (isChoice(q.type)) out.options = q.options.map((o) => o.trim());
  if (q.type === "number") {
    out.min = q.min.trim() === "" ? null : Number(q.min);
    out.max = q.max.trim() === "" ? null : Number(q.max);
  }
  return out;
}

/** The server's bounds for a number question's lowest and highest answers. */
const MAX_BOUND = 1_000_000_000;
const boundOk = (text: string) =>
  Number.isFinite(Number(text)) && Math.abs(Number(text)) <= MAX_BOUND && !/\.\d{5,}/.test(text);

/** Every problem with the questions, each said as the form numbers them, or empty when there are none. */
export function questionProblems(questions: Question[]): string[] {
  if (questions.length === 0) return ["Add at least one question."];
  const problems: string[] = [];
  for (const [i, q] of questions.entries()) {
    const n = i + 1;
    if (!q.text.trim()) problems.push(`Question ${n} is empty: write it or remove it.`);
    if (isChoice(q.type)) {
      const options = q.options.map((o) => o.trim());
      if (options.length < MIN_OPTIONS || options.some((o) => !o)) {
        problems.push(`Question ${n} needs ${MIN_OPTIONS} to ${MAX_OPTIONS} options, none empty.`);
      } else if (new Set(options.map((o) => o.toLowerCase())).size !== options.length) {
        problems.push(`Question ${n} has the same option twice.`);
      }
    }
    if (q.type === "number") {
      const [min, max] = [q.min.trim(), q.max.trim()];
      if ((min && !boundOk(min)) || (max && !boundOk(max))) {
        problems.push(
          `Question ${n}: the lowest and highest answers must be numbers up to a billion, with at most 4 decimals.`,
        );
      } else if (min && max && Number(min) > Number(max)) {
        problems.push(`Question ${n}: the lowest answer is above the highest.`);
      }
    }
  }
  return problems;
}

interface RowProps {
  question: Question;
  index: number;
  count: number;
  onChange: (patch: Partial<Question>) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}

/** One question: text and order on the first line, how it is answered below. */
export function QuestionRow({ question: q, index, count, onChange, onMove, onRemove }: RowProps) {
  const n = index + 1;
  const id = `q-${q.key}`;
  const setOption = (i: number, text: string) => onChange({ options: q.options.map((o, j) => (j === i ? text : o)) });
  return (
    <li className="question">
      <div className="question-main">
        <label htmlFor={id} className="sr-only">
          Question {n}
        </label>
        <span className="question-number" aria-hidden="true">
          {n}
        </span>
        <input
          id={id}
          className="input"
          value={q.text}
          maxLength={MAX_QUESTION_LENGTH}
          onChange={(e) => onChange({ text: e.target.value })}
          required
        />
        <div className="question-actions">
          <button
            type="button"
            className="button button-icon"
            onClick={() => onMove(-1)}
            disabled={index === 0}
            aria-label={`Move question ${n} up`}
          >
            ↑
          </button>
          <button
            type="button"
            className="button button-icon"
            onClick={() => onMove(1)}
            disabled={index === count - 1}
            aria-label={`Move question ${n} down`}
          >
            ↓
          </button>
          <button
            type="button"
            className="button button-icon"
            onClick={onRemove}
            disabled={count === 1}
            aria-label={`Remove question ${n}`}
          >
            ×
          </button>
        </div>
      </div>
      <div className="question-settings">
        <label className="question-type">
          <span className="sr-only">Answer type of question {n}</span>
          <span aria-hidden="true">Answer</span>
          <select className="input" value={q.type} onChange={(e) => onChange({ type: e.target.value as QuestionType })}>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </label>
        {q.type === "number" ? (
          <>
            <label className="question-bound">
              <span>Lowest</span>
              <input
                className="input"
                type="number"
                inputMode="decimal"
                value={q.min}
                onChange={(e) => onChange({ min: e.target.value })}
                aria-label={`Lowest answer to question ${n} (optional)`}
              />
            </label>
            <label className="question-bound">
              <span>Highest</span>
              <input
                className="input"
                type="number"
                inputMode="decimal"
                value={q.max}
                onChange={(e) => onChange({ max: e.target.value })}
                aria-label={`Highest answer to question ${n} (optional)`}
              />
            </label>
          </>
        ) : null}
        {/* The two flags wrap together, never one on each line. */}
        <span className="question-flags">
          <label className="question-flag">
            <input type="checkbox" checked={q.required} onChange={(e) => onChange({ required: e.target.checked })} />
            <span>
              Required<span className="sr-only"> (question {n})</span>
            </span>
          </label>
          <label className="question-flag">
            <input
              type="checkbox"
              checked={q.anonymous}
              onChange={(e) => onChange({ anonymous: e.target.checked })}
              aria-describedby="anonymous-help"
            />
            <span>
              Anonymous<span className="sr-only"> (question {n})</span>
            </span>
          </label>
        </span>
      </div>
      {isChoice(q.type) ? (
        <fieldset className="question-options">
          <legend className="sr-only">Options of question {n}</legend>
          {q.options.map((option, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: options have no identity but their place
            <div key={i} className="question-option">
              <input
                className="input"
                value={option}
                maxLength={MAX_OPTION_LENGTH}
                onChange={(e) => setOption(i, e.target.value)}
                aria-label={`Option ${i + 1} of question ${n}`}
                placeholder={`Option ${i + 1}`}
              />
              <button
                type="button"
                className="button button-icon"
                onClick={() => onChange({ options: q.options.filter((_, j) => j !== i) })}
                disabled={q.options.length <= MIN_OPTIONS}
                aria-label={`Remove option ${i + 1} of question ${n}`}
              >
                ×
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button"
            onClick={() => onChange({ options: [...q.options, ""] })}
            disabled={q.options.length >= MAX_OPTIONS}
          >
            Add option<span className="sr-only"> to question {n}</span>
          </button>
        </fieldset>
      ) : null}
    </li>
  );
}
