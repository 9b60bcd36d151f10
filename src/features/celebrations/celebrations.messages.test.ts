import { describe, expect, it } from "vitest";
import { slackLimitViolations } from "../../../test/support/slack-limits.ts";
import type { Celebration } from "./celebrations.dates.ts";
import { celebrationMessage } from "./celebrations.messages.ts";

const people = (n: number, kind: Celebration["kind"]): Celebration[] =>
  Array.from({ length: n }, (_, i) => ({
    userId: `U0${String(i).padStart(9, "0")}`,
    name: `Person ${i}`,
    kind,
    years: kind === "anniversary" ? (i % 30) + 1 : null,
    // Most fall on the weekend after the Friday post: each line names its day.
    date: i % 3 === 0 ? "2026-11-27" : i % 3 === 1 ? "2026-11-28" : "2026-11-29",
  }));

/** Every person line of the post, whole, in the blocks' text. */
const personLines = (msg: { blocks?: unknown[] }) =>
  (msg.blocks ?? [])
    .flatMap((b) => ((b as { text?: { text?: string } }).text?.text ?? "").split("\n"))
    .filter((l) => l.startsWith("• "));

describe("the daily Celebrations post with many people", () => {
  it("300 anniversaries over a weekend: everyone listed, each line whole, inside Slack's limits", () => {
    const msg = celebrationMessage("anniversary", "2026-11-27", people(300, "anniversary"));
    expect(slackLimitViolations(msg)).toEqual([]);
    const lines = personLines(msg);
    const listed = lines.length;
    const more = JSON.stringify(msg.blocks).match(/…and (\d+) more people/);
    expect(listed + Number(more?.[1] ?? 0)).toBe(300);
    for (const l of lines) expect(l).toMatch(/^• <@U0\d{9}>: \d+ years?( \(on (Saturday|Sunday)\))?$/);
  });

  it("1,200 birthdays: as many as fit, whole lines, and the right count of the rest", () => {
    const msg = celebrationMessage("birthday", "2026-11-27", people(1200, "birthday"));
    expect(slackLimitViolations(msg)).toEqual([]);
    const lines = personLines(msg);
    expect(lines.length).toBeGreaterThan(200);
    for (const l of lines) expect(l).toMatch(/^• <@U0\d{9}>( \(on (Saturday|Sunday)\))?$/);
    expect(JSON.stringify(msg.blocks)).toContain(`…and ${1200 - lines.length} more people: congratulations`);
    expect(new Set(lines).size).toBe(lines.length);
  });
});
