import type { ChatMessage } from "../../chat/block-fit.ts";
import { fitMessage } from "../../chat/block-fit.ts";
import { context, section } from "../../chat/blocks.ts";
import { prettyDate, type RunInfo, slackEscape } from "./messages.ts";
import { answerHint, runQuestions } from "./typed-answers.ts";

/** A standup as members are told of it (mrkdwn): its name, or "#channel standup" when it has none. */
export function standupLabel(run: Pick<RunInfo, "channelId">, name: string): string {
  return name.trim() ? `*${slackEscape(name.trim())}* in <#${run.channelId}>` : `the <#${run.channelId}> standup`;
}

/**
 * The next question in the DM conversation, after an answer. `name`: the standup it is for, said when the member has
 * another one open.
 */
export function nextQuestionText(q: {
  question: string;
  index: number;
  total: number;
  name?: string;
  hint?: string;
}): string {
  const head = q.name ? `For ${q.name}, ` : "";
  return `${head}*${q.index + 1}/${q.total}:* ${slackEscape(q.question)}${hintLine(q.hint)}`;
}

/** How to answer a typed or optional question, on its own line under it ("" when there is nothing to say). */
export function hintLine(hint: string | undefined): string {
  return hint ? `\n_${slackEscape(hint)}_` : "";
}

/** A DM answer that does not fit its typed question: the same question again, with its choices. */
export function invalidAnswerText(q: { question: string; index: number; total: number; name?: string; hint: string }) {
  return `:thinking_face: I could not read that answer. ${nextQuestionText(q)}`;
}

/** The DM handed over to a run that was waiting its turn: its first question, naming it. */
export function turnMessage(run: RunInfo, name: string): ChatMessage {
  const first = run.questions[0] ?? "";
  return fitMessage({
    text: `Next, ${name} (${prettyDate(run.localDate)}): 1/${run.questions.length}`,
    blocks: [
      section(
        `:wave: Next, ${name} for ${prettyDate(run.localDate)}.\n*1/${run.questions.length}:* ${slackEscape(first)}${firstHint(run)}`,
      ),
      context("Reply here, one question at a time. Type `skip` to skip this standup today."),
    ],
  });
}

/** How to answer the run's first question, when it is typed or optional. */
export function firstHint(run: Pick<RunInfo, "questions" | "questionDetails">): string {
  const first = runQuestions(run)[0];
  return first ? hintLine(answerHint(first)) : "";
}
