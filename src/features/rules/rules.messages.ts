import type { ActionsBlock } from "@slack/types";
import { type ChatMessage, fitMessage } from "../../chat/block-fit.ts";
import { truncate } from "../../chat/block-text.ts";
import { context, section, sections } from "../../chat/blocks.ts";
import { prettyDate, slackEscape } from "../standups/index.ts";

/** The report button is a link; Slack still sends its click, which is only acknowledged. */
export const OPEN_REPORT_ACTION = "rule_open_report";

/** How much of a blocker a rule's message quotes: an answer holds up to 3,000 characters, a section as much. */
export const BLOCKER_QUOTE_MAX = 2_500;
/** How much of it the notification text (the push, the unread list) shows. */
const BLOCKER_PREVIEW = 150;

/** Where the alert is about: the standup's display name, the run's date and the dashboard's report of that day. */
export interface AlertPlace {
  standup: string;
  localDate: string;
  reportUrl: string;
}

/** "60", "2.5", "2.67": thresholds and averages as people write them. */
export function formatFigure(n: number): string {
  return String(Math.round(n * 100) / 100);
}

const FOOTER = "Sent by a workflow rule; admins change rules under Rules in the dashboard.";

function reportButton(url: string): ActionsBlock {
  return {
    type: "actions",
    elements: [
      {
        type: "button",
        text: { type: "plain_text", text: "Open the report", emoji: true },
        url,
        action_id: OPEN_REPORT_ACTION,
      },
    ],
  };
}

function where(p: AlertPlace): string {
  return `${slackEscape(p.standup)} · ${prettyDate(p.localDate)}`;
}

function alert(p: AlertPlace, icon: string, headline: string): ChatMessage {
  return fitMessage({
    text: `${headline}: ${slackEscape(p.standup)}, ${prettyDate(p.localDate)}`,
    blocks: [section(`${icon} *${headline}*\n${where(p)}`), reportButton(p.reportUrl), context(FOOTER)],
  });
}

export function participationAlert(
  p: AlertPlace,
  f: { pct: number; answered: number; asked: number; threshold: number },
): ChatMessage {
  return alert(
    p,
    ":chart_with_downwards_trend:",
    `Participation ${f.pct} % (${f.answered} of ${f.asked}) is below ${formatFigure(f.threshold)} %`,
  );
}

export function moodAlert(p: AlertPlace, f: { average: number; count: number; threshold: number }): ChatMessage {
  const answers = f.count === 1 ? "1 answer" : `${f.count} answers`;
  return alert(
    p,
    ":cloud:",
    `Mood ${formatFigure(f.average)} (average of ${answers}) is below ${formatFigure(f.threshold)}`,
  );
}

/** blocker_open_days: names the person (no mention), quotes the blocker and says how long it has been open. */
export function blockerOpenAlert(p: AlertPlace, b: { name: string; text: string; ageDays: number }): ChatMessage {
  const name = slackEscape(b.name);
  const days = b.ageDays === 1 ? "1 day" : `${b.ageDays} days`;
  const quoted = `>${truncate(slackEscape(b.text.trim()), BLOCKER_QUOTE_MAX).replace(/\n/g, "\n>")}`;
  return fitMessage({
    text: `Blocker from ${name} open for ${days} in ${slackEscape(p.standup)}: ${truncate(slackEscape(b.text.trim()), BLOCKER_PREVIEW)}`,
    blocks: [
      section(`:hourglass: *Blocker from ${name} open for ${days}*\n${where(p)}`),
      ...sections(quoted),
      reportButton(p.reportUrl),
      context(FOOTER),
    ],
  });
}

/** Names the person (no mention: a rule's post should not ping them) and quotes the blocker, cut to fit Slack. */
export function blockerAlert(p: AlertPlace, b: { name: string; text: string }): ChatMessage {
  const name = slackEscape(b.name);
  const quoted = `>${truncate(slackEscape(b.text.trim()), BLOCKER_QUOTE_MAX).replace(/\n/g, "\n>")}`;
  return fitMessage({
    text: `Blocker from ${name} in ${slackEscape(p.standup)}: ${truncate(slackEscape(b.text.trim()), BLOCKER_PREVIEW)}`,
    blocks: [
      section(`:rotating_light: *Blocker from ${name}*\n${where(p)}`),
      ...sections(quoted),
      reportButton(p.reportUrl),
      context(FOOTER),
    ],
  });
}
