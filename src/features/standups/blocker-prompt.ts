import type { KnownBlock } from "@slack/types";
import { truncate } from "../../chat/block-text.ts";
import { actions, button, context, section } from "../../chat/blocks.ts";
import { type BlockerItem, blockerAgeDays } from "./blocker-items.ts";

/**
 * "Still blocked on …?" (issue 25): the ask DM and the answer modal of a member with an open blocker item for the
 * standup start with it. The buttons carry the blocker's id; blocker-actions.ts records the click.
 */

export const BLOCKER_ACTIONS = { resolved: "blocker_resolved", still: "blocker_still_blocked" } as const;
/** The prompt's blocks in the ask DM: a click replaces them with what was recorded, the rest of the DM stays. */
export const BLOCKER_BLOCK_IDS = { prompt: "blocker_prompt", actions: "blocker_actions" } as const;
/** The modal's "Resolved" checkbox. */
export const BLOCKER_MODAL = { block: "blocker_resolve", action: "resolved" } as const;

/** How much of the blocker the prompt quotes: the whole text is in the dashboard; this only names it. */
const PROMPT_QUOTE = 150;

export interface BlockerPrompt {
  id: number;
  text: string;
  ageDays: number;
}

/** The open item worth asking about on `localDate`: one reported on an earlier day (not the one just answered). */
export function promptFor(
  item: Pick<BlockerItem, "id" | "text" | "openedDate" | "status"> | undefined,
  localDate: string,
): BlockerPrompt | undefined {
  if (item?.status !== "open" || item.openedDate >= localDate) return undefined;
  return { id: item.id, text: item.text, ageDays: blockerAgeDays(item.openedDate, localDate) };
}

export function daysAgo(days: number): string {
  return days === 0 ? "today" : days === 1 ? "1 day ago" : `${days} days ago`;
}

/** "(3 days)" after a blocker in the summary; a blocker reported today is "(new)". */
export function ageNote(days: number): string {
  return days === 0 ? "(new)" : days === 1 ? "(1 day)" : `(${days} days)`;
}

/** The quoted blocker, escaped for mrkdwn by the caller's `escape` (messages.ts's slackEscape). */
export function quote(text: string, esc: (s: string) => string): string {
  return `“${esc(truncate(text.trim().replace(/\s+/g, " "), PROMPT_QUOTE))}”`;
}

export function promptBlocks(p: BlockerPrompt, esc: (s: string) => string): KnownBlock[] {
  return [
    {
      ...section(`:construction: Still blocked on ${quote(p.text, esc)} (reported ${daysAgo(p.ageDays)})?`),
      block_id: BLOCKER_BLOCK_IDS.prompt,
    },
    {
      ...actions(
        button("Resolved", BLOCKER_ACTIONS.resolved, String(p.id), "primary"),
        button("Still blocked", BLOCKER_ACTIONS.still, String(p.id)),
      ),
      block_id: BLOCKER_BLOCK_IDS.actions,
    },
  ];
}

/** The modal's top: the open blocker and an optional "Resolved" checkbox (its value is the blocker's id). */
export function modalBlocks(p: BlockerPrompt, esc: (s: string) => string): KnownBlock[] {
  return [
    context(`:construction: Open blocker: ${quote(p.text, esc)} (reported ${daysAgo(p.ageDays)})`),
    {
      type: "input",
      block_id: BLOCKER_MODAL.block,
      optional: true,
      label: { type: "plain_text", text: "Your open blocker", emoji: true },
      element: {
        type: "checkboxes",
        action_id: BLOCKER_MODAL.action,
        options: [{ text: { type: "plain_text", text: "Resolved", emoji: true }, value: String(p.id) }],
      },
    },
  ];
}

type ModalValues = Record<string, Record<string, { selected_options?: { value?: string }[] | null } | undefined>>;

/** The blocker id the member ticked "Resolved" for in the modal, if any. */
export function tickedResolved(values: ModalValues): number | undefined {
  const picked = values[BLOCKER_MODAL.block]?.[BLOCKER_MODAL.action]?.selected_options?.[0]?.value;
  const id = Number(picked);
  return picked !== undefined && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** What a click recorded, in place of the prompt in the DM. */
export function recordedBlocks(line: string): KnownBlock[] {
  return [{ ...section(line), block_id: BLOCKER_BLOCK_IDS.prompt }];
}

/** The DM's blocks with the prompt (and its buttons) replaced by `replacement`; the Answer buttons stay. */
export function replacePrompt(blocks: KnownBlock[], replacement: KnownBlock[]): KnownBlock[] {
  const at = blocks.findIndex((b) => b.block_id === BLOCKER_BLOCK_IDS.prompt);
  const rest = blocks.filter(
    (b) => b.block_id !== BLOCKER_BLOCK_IDS.prompt && b.block_id !== BLOCKER_BLOCK_IDS.actions,
  );
  rest.splice(Math.max(0, at), 0, ...replacement);
  return rest;
}
