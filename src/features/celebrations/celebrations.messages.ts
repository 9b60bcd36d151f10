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

/** The day's post of one kind: everyone celebrated, those on a later (non-working) day with their weekday. */
export function celebrationMessage(kind: CelebrationKind, postDate: string, people: Celebration[]): ChatMessage {
  const head =
    kind === "birthday"
      ? people.length === 1
        ? "🎂 Happy birthday!"
        : "🎂 Happy birthday to all of you!"
      : "🎉 Happy work anniversary!";
  const lines = people.map((c) => line(c, postDate));
  const text = `${head}\n${lines.join("\n")}`;
  return fitMessage(
    {
      text,
      blocks: [
        { type: "header", text: { type: "plain_text", text: head, emoji: true } },
        ...chunk(lines, 20).map((part) => ({
          type: "section" as const,
          text: { type: "mrkdwn" as const, text: part.join("\n") },
        })),
      ],
    },
    { more: (n) => `…and ${n} more` },
  );
}

function chunk<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
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
