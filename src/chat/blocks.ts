/** Typed Block Kit constructors for the builders; long text becomes several blocks within Slack's limits. */
import type { ActionsBlock, Button, ContextBlock, SectionBlock } from "@slack/types";
import { MAX_SECTION_TEXT, MAX_TEXT_OBJECT } from "./block-limits.ts";
import { splitText } from "./block-text.ts";

export const section = (text: string): SectionBlock => ({ type: "section", text: { type: "mrkdwn", text } });
export const context = (text: string): ContextBlock => ({ type: "context", elements: [{ type: "mrkdwn", text }] });

/** Text of any length as consecutive section blocks of at most 3,000 characters, cut at line breaks first. */
export const sections = (text: string): SectionBlock[] =>
  splitText(text, MAX_SECTION_TEXT)
    .filter((piece) => piece.trim() !== "")
    .map(section);

/** Text of any length as consecutive context blocks, each within a text object's 3,000 characters. */
export const contexts = (text: string): ContextBlock[] =>
  splitText(text, MAX_TEXT_OBJECT)
    .filter((piece) => piece.trim() !== "")
    .map(context);

export const button = (text: string, actionId: string, value: string, style?: "primary" | "danger"): Button => ({
  type: "button",
  text: { type: "plain_text", text, emoji: true },
  action_id: actionId,
  value,
  ...(style ? { style } : {}),
});

export const actions = (...elements: Button[]): ActionsBlock => ({ type: "actions", elements });
