import { type ChatMessage, fitMessage } from "../../chat/block-fit.ts";
import type { CelebrationKind } from "../../db/schema.ts";
import { profileButton } from "../profiles/index.ts";
import type { Celebration } from "./celebrations.dates.ts";

/** The Celebrations messages, each within Slack's limits (fitMessage). */

export const TADA = "tada";

const DAY = new Intl.DateTimeFormat("en-GB", { weekday: "long", timeZone: "UTC" });
const dayName = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`));

function line(c: Celebration, postDate: string): string {
  const when = c.date === postDate ? "" : ` (on ${dayName(c.date)})`;
  if (c.kind === "birthday") return `• <@${c.userId}>${when}`;
  const years = `${c.years} year${c.years === 1 ? "" : "s"}`;
  return `• <@${c.userId}>: ${years}${when}`;
}

/** Characters of people lines one post lists at most: inside Slack's message budget with room for the rest. */
export const LIST_BUDGET = 8_000;
/** Characters of one section's text (Slack allows 3,000). */
const SECTION_BUDGET = 2_900;

/**
 * The day's post of one kind: everyone celebrated, those on a later (non-working) day with their weekday. A day with
 * more people than one message holds lists as many as fit, whole lines only, and says how many more there are.
 */
export function celebrationMessage(kind: CelebrationKind, postDate: string, people: Celebration[]): ChatMessage {
  const head =
    kind === "birthday"
      ? people.length === 1
        ? "🎂 Happy birthday!"
        : "🎂 Happy birthday to all of you!"
      : "🎉 Happy work anniversary!";
  const shown: string[] = [];
  let used = 0;
  for (const c of people) {
    const l = line(c, postDate);
    if (used + l.length + 1 > LIST_BUDGET) break;
    shown.push(l);
    used += l.length + 1;
  }
  const rest = people.length - shown.length;
  if (rest > 0) shown.push(`…and ${rest} more ${rest === 1 ? "person" : "people"}: congratulations to all of you!`);
  const sections = bySize(shown, SECTION_BUDGET).map((part) => ({
    type: "section" as const,
    text: { type: "mrkdwn" as const, text: part.join("\n") },
  }));
  return fitMessage({
    text: `${head}\n${shown.join("\n")}`,
    blocks: [{ type: "header", text: { type: "plain_text", text: head, emoji: true } }, ...sections],
  });
}

/** Lines grouped into runs of at most `budget` characters (joined by newlines), never splitting a line. */
function bySize(lines: string[], budget: number): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const l of lines) {
    if (current.length > 0 && size + l.length + 1 > budget) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(l);
    size += l.length + 1;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export function askDatesMessage(text: string): ChatMessage {
  return fitMessage({
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text } },
      {
        type: "actions",
        elements: [
          // The profiles feature opens the profile modal for it.
          { ...profileButton("Add my dates"), style: "primary" as const },
        ],
      },
    ],
  });
}
