import type { ChatMessage } from "./llm.client.ts";

/** The prompt: what the model is asked and how the answers are fitted into a size cap. */

/** Characters of answer and blocker text a prompt carries at most (the rest of the prompt is small and fixed). */
export const MAX_INPUT_CHARS = 12_000;

const SYSTEM_RUN = [
  "You summarise one day of a team's standup for the team itself.",
  "Write plain text (no Markdown, no headings), at most 150 words.",
  "Cover: the main themes, risks, open blockers, and who needs help (by name).",
  "Use only the answers given; never invent facts. If something is unclear, leave it out.",
].join(" ");

const SYSTEM_WEEK = [
  "You summarise one week of a team's standup for its managers.",
  "Write plain text (no Markdown, no headings), at most 150 words.",
  "Cover: the main themes, risks, open blockers, and who needs help (by name).",
  "Use only the answers given; never invent facts.",
].join(" ");

/** A text the prompt quotes, with the label it comes after ("Alice (mood 🙂), What did you do?"). */
export interface Quoted {
  label: string;
  text: string;
}

/**
 * The largest per-text cap that fits every text in `budget` characters: short answers are kept whole and the long
 * ones share what is left equally, so one long answer cannot crowd out everyone else's.
 */
export function fairCap(lengths: readonly number[], budget: number): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let left = budget;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    const len = sorted[i] ?? 0;
    if (len > share) return share;
    left -= len;
  }
  return Number.POSITIVE_INFINITY;
}

/** The texts cut to a fair share of MAX_INPUT_CHARS (an ellipsis marks a cut), and whether any was cut. */
export function fitTexts(items: readonly Quoted[]): { items: Quoted[]; truncated: boolean } {
  const flat = items.map((q) => ({ label: q.label, text: q.text.replace(/\s+/g, " ").trim() }));
  const cap = fairCap(
    flat.map((q) => q.text.length),
    MAX_INPUT_CHARS,
  );
  let truncated = false;
  const fitted = flat.map((q) => {
    if (q.text.length <= cap) return q;
    truncated = true;
    return { label: q.label, text: `${q.text.slice(0, Math.max(0, cap - 1))}…` };
  });
  return { items: fitted, truncated };
}

export interface RunPrompt {
  date: string;
  asked: number;
  answered: number;
  skipped: number;
  away: number;
  answers: Quoted[];
  /** Open blockers this run reported, with that answer's text. */
  blockers: Quoted[];
  /** Open blockers reported only in earlier runs: "Ana Lima: blocked for 6 days", never their text. */
  olderBlockers: string[];
}

function section(title: string, items: Quoted[], empty: string): string {
  return [`${title}:`, ...(items.length === 0 ? [empty] : items.map((q) => `- ${q.label}: ${q.text}`))].join("\n");
}

const TRUNCATED_NOTE = "Some long answers were shortened to fit (marked with …); do not guess what was cut.";

export function runMessages(p: RunPrompt): ChatMessage[] {
  const fitted = fitTexts([...p.answers, ...p.blockers]);
  const answers = fitted.items.slice(0, p.answers.length);
  const blockers = fitted.items.slice(p.answers.length);
  const user = [
    `Standup of ${p.date}. Asked: ${p.asked}; answered: ${p.answered}; skipped: ${p.skipped}; away: ${p.away}.`,
    ...(fitted.truncated ? [TRUNCATED_NOTE] : []),
    "",
    section("Answers (name, question: answer)", answers, "(nobody answered)"),
    "",
    section("Open blockers of this standup (name, how long open: text)", blockers, "(none)"),
    ...(p.olderBlockers.length === 0
      ? []
      : ["", "Still open from earlier days (not reported today):", ...p.olderBlockers.map((line) => `- ${line}`)]),
  ].join("\n");
  return [
    { role: "system", content: SYSTEM_RUN },
    { role: "user", content: user },
  ];
}

export function weekMessages(p: { from: string; to: string; answers: Quoted[] }): ChatMessage[] {
  const fitted = fitTexts(p.answers);
  const user = [
    `Standup answers from ${p.from} to ${p.to}.`,
    ...(fitted.truncated ? [TRUNCATED_NOTE] : []),
    "",
    section("Answers (date, name, question: answer)", fitted.items, "(nobody answered)"),
  ].join("\n");
  return [
    { role: "system", content: SYSTEM_WEEK },
    { role: "user", content: user },
  ];
}
