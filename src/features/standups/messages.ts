import type { ModalView } from "@slack/types";
import { DateTime } from "luxon";
import { blockTextLength, type ChatMessage, fitMessage, fitModal } from "../../chat/block-fit.ts";
import { MAX_MESSAGE_BLOCKS_TEXT, MAX_SECTION_TEXT } from "../../chat/block-limits.ts";
import { joinWithMore, shareBudget, truncate } from "../../chat/block-text.ts";
import { actions, button, context, contexts, section, sections } from "../../chat/blocks.ts";
import { type AnswerValue, type QuestionDetail, questionDetailsOf } from "../../contract/questions.ts";
import { shoutOutBlocks } from "../kudos/index.ts";
import { ageNote, type BlockerPrompt, modalBlocks, promptBlocks } from "./blocker-prompt.ts";
import { firstHint } from "./conversation-messages.ts";
import { questionBlocks } from "./question-inputs.ts";

/** Mood choices, scored 5 to 1 for trends. */
export const MOODS = ["😀", "🙂", "😐", "😕", "😫"] as const;
export type Mood = (typeof MOODS)[number];
export { MAX_ANSWER_LENGTH } from "./question-inputs.ts";

export const ACTIONS = {
  answer: "standup_answer",
  edit: "standup_edit",
  skip: "standup_skip",
  openDashboard: "open_dashboard",
} as const;
export const MODAL_CALLBACK = "standup_modal";

/**
 * Text people typed goes into mrkdwn: escape Slack's control characters (so `<!channel>` and `<@U…>` stay
 * inert) and break `@channel`/`@here`/`@everyone` so nobody is pinged by someone else's answer.
 */
export function slackEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@(channel|here|everyone)\b/gi, "@\u200b$1");
}

/** Room left in a message's text budget for the few words around the content a builder shortens. */
const BUDGET_MARGIN = 200;

export function prettyDate(localDate: string): string {
  return DateTime.fromISO(localDate).toFormat("cccc d LLLL yyyy");
}

export interface RunInfo {
  id: number;
  channelId: string;
  localDate: string;
  questions: string[];
  /** Typed, optional and anonymous questions (issue 25); null: every question is required text. */
  questionDetails?: QuestionDetail[] | null;
}

/** The questions as a numbered list, anonymous ones marked so members know before they answer. */
function questionList(run: RunInfo): string {
  return questionDetailsOf(run.questions, run.questionDetails)
    .map((q, i) => `*${i + 1}.* ${slackEscape(q.text)}${q.anonymous ? " _(anonymous)_" : ""}`)
    .join("\n");
}

export function parentMessage(run: RunInfo): ChatMessage {
  const text = `Standup for ${prettyDate(run.localDate)}`;
  return fitMessage({
    text,
    blocks: [
      section(`:sunrise: *${text}*\nAnswers arrive in this thread as people submit them.`),
      ...contexts(run.questions.map((q, i) => `${i + 1}. ${slackEscape(q)}`).join("   ")),
    ],
  });
}

/**
 * How the ask DM invites answers in the conversation (see dm-conversation.ts): `name` (mrkdwn), said when the member
 * has another standup open; `waitingFor`: another standup holds the DM conversation, this one's questions come after.
 */
export interface AskOptions {
  name?: string;
  waitingFor?: string;
  /** The member's open blocker for this standup, reported on an earlier day: "Still blocked on …?" comes first. */
  blocker?: BlockerPrompt;
  /** A word first (an early answer dropped because the questions changed). */
  note?: string;
}

export function askMessage(run: RunInfo, opts: AskOptions = {}): ChatMessage {
  const first = run.questions[0] ?? "";
  const what = opts.name ?? `standup in <#${run.channelId}>`;
  const inConversation = opts.waitingFor
    ? `Or answer here in this chat once you have finished ${opts.waitingFor}: I will ask these questions then, one at a time.`
    : `Or reply here, one question at a time, starting with: *${slackEscape(first)}*  Type \`skip\` to skip today.${firstHint(run)}`;
  return fitMessage({
    // The notification's text: Slack shows a channel mention as the channel's name (a bare id would show as an id).
    text: `Time for standup in <#${run.channelId}>`,
    blocks: [
      ...(opts.note ? [section(`:information_source: ${slackEscape(opts.note)}`)] : []),
      ...(opts.blocker ? promptBlocks(opts.blocker, slackEscape) : []),
      section(`:wave: Time for ${what} (${prettyDate(run.localDate)}).`),
      ...sections(questionList(run)),
      actions(
        button("Answer", ACTIONS.answer, String(run.id), "primary"),
        button("Skip today", ACTIONS.skip, String(run.id)),
      ),
      context(inConversation),
    ],
  });
}

export function reminderMessage(run: RunInfo): ChatMessage {
  return fitMessage({
    text: "Reminder: your standup is still waiting",
    blocks: [
      section(
        `:alarm_clock: Reminder: your standup in <#${run.channelId}> for ${prettyDate(run.localDate)} is still waiting.`,
      ),
      actions(button("Answer", ACTIONS.answer, String(run.id), "primary")),
    ],
  });
}

export function confirmMessage(run: RunInfo): ChatMessage {
  return fitMessage({
    text: "Thanks! Your standup is in.",
    blocks: [
      section(
        `:white_check_mark: Thanks! Your standup for ${prettyDate(run.localDate)} is posted in <#${run.channelId}>.`,
      ),
      actions(button("Edit", ACTIONS.edit, String(run.id))),
    ],
  });
}

export interface ReplyInput {
  userId: string;
  questions: string[];
  answers: string[];
  mood: string | null;
  hasBlocker: boolean;
  /** The run's blocker question, 1-based; null: none. */
  blockerQuestion: number | null;
  edited: boolean;
  /** The run's question details: anonymous questions are left out of the thread (their answers are not in `answers`). */
  questionDetails?: QuestionDetail[] | null;
  /** Given after the member's window closed. */
  late?: boolean;
  /** Given (or last edited) from an AI client: the reply ends with a "via MCP" note. */
  via?: string | null;
}

/** Said under a reply whose answers were shortened to fit Slack. */
const SHORTENED_NOTE = "_Long answers are shortened here to fit Slack; the dashboard has them in full._";

/** Under an answer an AI client gave for the member (issue 26). */
export const VIA_MCP_NOTE = "via MCP";

export function replyMessage(r: ReplyInput): ChatMessage {
  const anonymous = new Set((r.questionDetails ?? []).flatMap((d, i) => (d.anonymous ? [i] : [])));
  const lines = r.answers.flatMap((a, i) => {
    if (anonymous.has(i)) return [];
    const q = r.questions[i] ?? `Answer ${i + 1}`;
    const body = slackEscape(a || "—");
    // The answer to the blocker question stands out when it reports a blocker.
    if (i + 1 === r.blockerQuestion && r.hasBlocker)
      return [`:rotating_light: *${slackEscape(q)}*\n>*BLOCKER:* ${body.replace(/\n/g, "\n>")}`];
    return [`*${slackEscape(q)}*\n${body}`];
  });
  const head = `<@${r.userId}>${r.mood ? ` ${r.mood}` : ""}${r.late ? " _(late)_" : ""}${r.edited ? " _(edited)_" : ""}`;
  // A full set of long answers is more than one message holds: each answer keeps a fair share, the rest is cut.
  const fitted = shareBudget(lines, MAX_MESSAGE_BLOCKS_TEXT - head.length - SHORTENED_NOTE.length - BUDGET_MARGIN);
  const shortened = fitted.some((l, i) => l !== lines[i]);
  return fitMessage({
    text: `Standup from <@${r.userId}>${r.hasBlocker ? " (blocker)" : ""}`,
    blocks: [
      section(head),
      ...fitted.flatMap(sections),
      ...(shortened ? [context(SHORTENED_NOTE)] : []),
      ...(r.via === "mcp" ? [context(VIA_MCP_NOTE)] : []),
    ],
  });
}

/**
 * The close summary names people (real or display names) instead of mentioning them: a `<@U…>` in a channel
 * thread notifies everyone listed, and a standup summary should not ping a dozen people at midnight.
 */
export interface SummaryInput {
  asked: number;
  answered: number;
  /** The standup's open blocker items (and, where none are tracked, today's blocker answers); age in whole days. */
  blockers: { name: string; text: string; ageDays?: number }[];
  /** Blocker items resolved on the run's date. */
  resolvedToday?: { name: string; text: string }[];
  /** Names of those who did not answer. */
  missing: string[];
  /** Names of those who skipped the day. */
  skipped: string[];
  /** Names of those on time off on the run's date (not asked, not counted). */
  away?: string[];
}

export function participationPct(answered: number, asked: number): number {
  return asked === 0 ? 0 : Math.round((100 * answered) / asked);
}

/** How much of each blocker the summary quotes. */
const BLOCKER_PREVIEW = 300;

/** A list of names within one block: as many as fit, then "…and N more". */
function nameList(label: string, names: string[]): string {
  return `${label}${joinWithMore(names, MAX_SECTION_TEXT - label.length, { separator: ", " })}`;
}

export function summaryMessage(s: SummaryInput): ChatMessage {
  const pct = participationPct(s.answered, s.asked);
  const text = `Standup closed: ${s.answered}/${s.asked} answered (${pct}%)`;
  const heading = section(`:bar_chart: *${text}*`);
  const missing = s.missing.length > 0 ? [section(nameList("*Did not answer:* ", s.missing.map(slackEscape)))] : [];
  const skipped = s.skipped.length > 0 ? [context(nameList("Skipped today: ", s.skipped.map(slackEscape)))] : [];
  const away = s.away?.length ? [context(nameList(":palm_tree: Away: ", s.away.map(slackEscape)))] : [];
  // The blockers take what the rest of the message leaves of its text budget, in sections cut between blockers.
  const rest = MAX_MESSAGE_BLOCKS_TEXT - blockTextLength([heading, ...missing, ...skipped, ...away]) - BUDGET_MARGIN;
  const line = (b: { name: string; text: string; ageDays?: number }) =>
    `• *${slackEscape(b.name)}*: ${truncate(slackEscape(b.text), BLOCKER_PREVIEW)}${b.ageDays === undefined ? "" : ` ${ageNote(b.ageDays)}`}`;
  // Resolved ones are good news but the lesser part: they get a quarter of the room when both lists are there.
  const resolved = s.resolvedToday ?? [];
  const resolvedRoom = resolved.length === 0 ? 0 : s.blockers.length === 0 ? rest : Math.floor(rest / 4);
  const room = rest - resolvedRoom;
  const blockers =
    s.blockers.length === 0
      ? [section("*Blockers:* none")]
      : sections(`*Blockers (${s.blockers.length}):*\n${joinWithMore(s.blockers.map(line), room)}`);
  const done =
    resolved.length === 0
      ? []
      : sections(`*Resolved today (${resolved.length}):*\n${joinWithMore(resolved.map(line), resolvedRoom)}`);
  return fitMessage({ text, blocks: [heading, ...blockers, ...done, ...missing, ...skipped, ...away] });
}

export interface ModalInput {
  runId: number;
  channelId: string;
  localDate: string;
  questions: string[];
  /** The run's question details (null: every question is required text). */
  questionDetails?: QuestionDetail[] | null;
  existing?: { answers: string[]; answerValues?: AnswerValue[] | null; mood: string | null };
  /** Editable starting texts for a first answer (the yesterday question's previous "today"); ignored on edits. */
  prefill?: (string | undefined)[];
  /** The schedule's optional shout-out that gives kudos. */
  shoutOut?: boolean;
  /** The member's open blocker reported on an earlier day: shown first, with a "Resolved" checkbox. */
  blocker?: BlockerPrompt;
}

export function answerModal(m: ModalInput): ModalView {
  const existing = m.questions.map((_, i) => {
    if (m.existing) return { text: m.existing.answers[i] ?? "", value: m.existing.answerValues?.[i] ?? null };
    const prefill = m.prefill?.[i];
    return prefill ? { text: prefill, value: null } : undefined;
  });
  const blocks = questionBlocks(questionDetailsOf(m.questions, m.questionDetails), existing, m.existing !== undefined);
  const moodOption = (emoji: string) => ({
    text: { type: "plain_text" as const, text: emoji, emoji: true },
    value: emoji,
  });
  blocks.push({
    type: "input",
    block_id: "mood",
    optional: true,
    label: { type: "plain_text", text: "How are you feeling?", emoji: true },
    element: {
      type: "static_select",
      action_id: "mood",
      placeholder: { type: "plain_text", text: "Pick a mood" },
      options: MOODS.map(moodOption),
      ...(m.existing?.mood && (MOODS as readonly string[]).includes(m.existing.mood)
        ? { initial_option: moodOption(m.existing.mood) }
        : {}),
    },
  });
  if (m.shoutOut) blocks.push(...shoutOutBlocks());
  return fitModal({
    type: "modal",
    callback_id: MODAL_CALLBACK,
    private_metadata: JSON.stringify({ runId: m.runId }),
    title: { type: "plain_text", text: "Standup" },
    submit: { type: "plain_text", text: m.existing ? "Save" : "Submit" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      context(`<#${m.channelId}> · ${prettyDate(m.localDate)}`),
      ...(m.blocker ? modalBlocks(m.blocker, slackEscape) : []),
      ...blocks,
    ],
  });
}

export function helpMessage(dashboardUrl: string): ChatMessage {
  return fitMessage({
    text: "Upbeat runs your team's standups.",
    blocks: [
      section(
        "*Upbeat* runs your team's standups: at the scheduled time it DMs everyone in the standup's channel, collects answers (button or reply in the DM), posts them in a thread and closes the day with a summary.",
      ),
      section(
        "`/upbeat help` this message · `/upbeat skip` skip today's standup · " +
          "`/upbeat answer` answer your next standup ahead · `/upbeat profile` your profile · " +
          "`/upbeat kudos @someone thanks for …` give kudos · " +
          "`/upbeat away 2026-12-21 2027-01-04 [reason]` time off (`/upbeat away 2026-12-24` one day) · " +
          "`/upbeat back` end your time off today",
      ),
      {
        type: "actions",
        elements: [
          {
            type: "button",
            text: { type: "plain_text", text: "Open dashboard" },
            url: dashboardUrl,
            action_id: ACTIONS.openDashboard,
            style: "primary",
          },
        ],
      },
    ],
  });
}
