import { DateTime } from "luxon";

/** Mood choices, scored 5 to 1 for trends. */
export const MOODS = ["😀", "🙂", "😐", "😕", "😫"] as const;
export type Mood = (typeof MOODS)[number];
export const MAX_ANSWER_LENGTH = 3000;

export const ACTIONS = {
  answer: "standup_answer",
  edit: "standup_edit",
  skip: "standup_skip",
  openDashboard: "open_dashboard",
} as const;
export const MODAL_CALLBACK = "standup_modal";

type Block = Record<string, unknown>;

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

const section = (text: string): Block => ({ type: "section", text: { type: "mrkdwn", text } });
const context = (text: string): Block => ({ type: "context", elements: [{ type: "mrkdwn", text }] });
const button = (text: string, actionId: string, value: string, style?: "primary" | "danger"): Block => ({
  type: "button",
  text: { type: "plain_text", text, emoji: true },
  action_id: actionId,
  value,
  ...(style ? { style } : {}),
});

export function prettyDate(localDate: string): string {
  return DateTime.fromISO(localDate).toFormat("cccc d LLLL yyyy");
}

export interface RunInfo {
  id: number;
  channelId: string;
  localDate: string;
  questions: string[];
}

export function parentMessage(run: RunInfo): { text: string; blocks: Block[] } {
  const text = `Standup for ${prettyDate(run.localDate)}`;
  return {
    text,
    blocks: [
      section(`:sunrise: *${text}*\nAnswers arrive in this thread as people submit them.`),
      context(run.questions.map((q, i) => `${i + 1}. ${slackEscape(q)}`).join("   ")),
    ],
  };
}

export function askMessage(run: RunInfo): { text: string; blocks: Block[] } {
  const first = run.questions[0] ?? "";
  return {
    text: `Time for standup in #${run.channelId}`,
    blocks: [
      section(`:wave: Time for standup in <#${run.channelId}> (${prettyDate(run.localDate)}).`),
      section(run.questions.map((q, i) => `*${i + 1}.* ${slackEscape(q)}`).join("\n")),
      {
        type: "actions",
        elements: [
          button("Answer", ACTIONS.answer, String(run.id), "primary"),
          button("Skip today", ACTIONS.skip, String(run.id)),
        ],
      },
      context(
        `Or reply here, one question at a time, starting with: *${slackEscape(first)}*  Type \`skip\` to skip today.`,
      ),
    ],
  };
}

export function reminderMessage(run: RunInfo): { text: string; blocks: Block[] } {
  return {
    text: "Reminder: your standup is still waiting",
    blocks: [
      section(
        `:alarm_clock: Reminder: your standup in <#${run.channelId}> for ${prettyDate(run.localDate)} is still waiting.`,
      ),
      { type: "actions", elements: [button("Answer", ACTIONS.answer, String(run.id), "primary")] },
    ],
  };
}

export function confirmMessage(run: RunInfo): { text: string; blocks: Block[] } {
  return {
    text: "Thanks! Your standup is in.",
    blocks: [
      section(
        `:white_check_mark: Thanks! Your standup for ${prettyDate(run.localDate)} is posted in <#${run.channelId}>.`,
      ),
      { type: "actions", elements: [button("Edit", ACTIONS.edit, String(run.id))] },
    ],
  };
}

export interface ReplyInput {
  userId: string;
  questions: string[];
  answers: string[];
  mood: string | null;
  hasBlocker: boolean;
  edited: boolean;
}

export function replyMessage(r: ReplyInput): { text: string; blocks: Block[] } {
  const lines = r.answers.map((a, i) => {
    const q = r.questions[i] ?? `Answer ${i + 1}`;
    const body = slackEscape(a || "—");
    // The third answer is the blockers answer; an active blocker stands out.
    if (i === 2 && r.hasBlocker)
      return `:rotating_light: *${slackEscape(q)}*\n>*BLOCKER:* ${body.replace(/\n/g, "\n>")}`;
    return `*${slackEscape(q)}*\n${body}`;
  });
  const head = `<@${r.userId}>${r.mood ? ` ${r.mood}` : ""}${r.edited ? " _(edited)_" : ""}`;
  return {
    text: `Standup from <@${r.userId}>${r.hasBlocker ? " (blocker)" : ""}`,
    blocks: [section(head), ...lines.map((l) => section(l.slice(0, 3000)))],
  };
}

/**
 * The close summary names people (real or display names) instead of mentioning them: a `<@U…>` in a channel
 * thread notifies everyone listed, and a standup summary should not ping a dozen people at midnight.
 */
export interface SummaryInput {
  asked: number;
  answered: number;
  blockers: { name: string; text: string }[];
  /** Names of those who did not answer. */
  missing: string[];
  /** Names of those who skipped the day. */
  skipped: string[];
}

export function participationPct(answered: number, asked: number): number {
  return asked === 0 ? 0 : Math.round((100 * answered) / asked);
}

export function summaryMessage(s: SummaryInput): { text: string; blocks: Block[] } {
  const pct = participationPct(s.answered, s.asked);
  const text = `Standup closed: ${s.answered}/${s.asked} answered (${pct}%)`;
  const blocks: Block[] = [section(`:bar_chart: *${text}*`)];
  blocks.push(
    section(
      s.blockers.length === 0
        ? "*Blockers:* none"
        : `*Blockers (${s.blockers.length}):*\n${s.blockers.map((b) => `• *${slackEscape(b.name)}*: ${slackEscape(b.text).slice(0, 300)}`).join("\n")}`,
    ),
  );
  if (s.missing.length > 0)
    blocks.push(section(`*Did not answer:* ${s.missing.map(slackEscape).join(", ")}`.slice(0, 3000)));
  if (s.skipped.length > 0)
    blocks.push(context(`Skipped today: ${s.skipped.map(slackEscape).join(", ")}`.slice(0, 3000)));
  return { text, blocks };
}

export interface ModalInput {
  runId: number;
  channelId: string;
  localDate: string;
  questions: string[];
  existing?: { answers: string[]; mood: string | null };
}

export function answerModal(m: ModalInput): Record<string, unknown> {
  const blocks: Block[] = m.questions.map((q, i) => ({
    type: "input",
    block_id: `q${i}`,
    label: { type: "plain_text", text: q.slice(0, 2000), emoji: true },
    element: {
      type: "plain_text_input",
      action_id: "answer",
      multiline: true,
      max_length: MAX_ANSWER_LENGTH,
      ...(m.existing?.answers[i] ? { initial_value: m.existing.answers[i] } : {}),
    },
  }));
  const moodOption = (emoji: string) => ({ text: { type: "plain_text", text: emoji, emoji: true }, value: emoji });
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
  return {
    type: "modal",
    callback_id: MODAL_CALLBACK,
    private_metadata: JSON.stringify({ runId: m.runId }),
    title: { type: "plain_text", text: "Standup" },
    submit: { type: "plain_text", text: m.existing ? "Save" : "Submit" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [context(`<#${m.channelId}> · ${prettyDate(m.localDate)}`), ...blocks],
  };
}

export function helpMessage(dashboardUrl: string): { text: string; blocks: Block[] } {
  return {
    text: "Upbeat runs your team's standups.",
    blocks: [
      section(
        "*Upbeat* runs your team's standups: at the scheduled time it DMs everyone in the standup's channel, collects answers (button or reply in the DM), posts them in a thread and closes the day with a summary.",
      ),
      section("`/upbeat help` this message · `/upbeat skip` skip today's standup · `/upbeat profile` your profile"),
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
  };
}
