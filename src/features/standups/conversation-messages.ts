import type { ChatMessage } from "../../chat/block-fit.ts";
import { fitMessage } from "../../chat/block-fit.ts";
import { context, section } from "../../chat/blocks.ts";
import { prettyDate, type RunInfo, slackEscape } from "./messages.ts";

/** A standup as members are told of it (mrkdwn): its name, or "#channel standup" when it has none. */
export function standupLabel(run: Pick<RunInfo, "channelId">, name: string): string {
  return name.trim() ? `*${slackEscape(name.trim())}* in <#${run.channelId}>` : `the <#${run.channelId}> standup`;
}

/**
 * The next question in the DM conversation, after an answer. `name`: the standup it is for, said when the member has
 * another one open.
 */
export function nextQuestionText(q: { question: string; index: number; total: number; name?: string }): string {
  const head = q.name ? `For ${q.name}, ` : "";
  return `${head}*${q.index + 1}/${q.total}:* ${slackEscape(q.question)}`;
}

/** The DM handed over to a run that was waiting its turn: its first question, naming it. */
export function turnMessage(run: RunInfo, name: string): ChatMessage {
  const first = run.questions[0] ?? "";
  return fitMessage({
    text: `Next, ${name} (${prettyDate(run.localDate)}): 1/${run.questions.length}`,
    blocks: [
      section(
        `:wave: Next, ${name} for ${prettyDate(run.localDate)}.\n*1/${run.questions.length}:* ${slackEscape(first)}`,
      ),
      context("Reply here, one question at a time. Type `skip` to skip this standup today."),
    ],
  });
}
