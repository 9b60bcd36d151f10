import type { ActionsBlock, KnownBlock, ModalView, SectionBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { assertWithinSlackLimits } from "../../test/support/slack-limits.ts";
import { blockTextLength, fitHome, fitMessage, fitModal } from "./block-fit.ts";
import { MAX_MESSAGE_BLOCKS, MAX_MESSAGE_BLOCKS_TEXT, MAX_VIEW_BLOCKS } from "./block-limits.ts";

const s = (n: number, ch = "x") => ch.repeat(n);
const section = (text: string): SectionBlock => ({ type: "section", text: { type: "mrkdwn", text } });
const actions: ActionsBlock = {
  type: "actions",
  elements: [{ type: "button", text: { type: "plain_text", text: s(100, "B") }, action_id: "go", value: "1" }],
};

describe("fitMessage", () => {
  it("leaves a message within every limit as it is", () => {
    const msg = { text: "hello", blocks: [section("a"), actions] as KnownBlock[] };
    const fitted = fitMessage({ ...msg, blocks: [section("a")] });
    expect(fitted).toEqual({ text: "hello", blocks: [section("a")] });
  });

  it("brings every text and list within its limit, whatever the builder produced", () => {
    const blocks: KnownBlock[] = [
      { type: "header", text: { type: "plain_text", text: s(400) } },
      section(s(5000)),
      { type: "section", fields: Array.from({ length: 14 }, () => ({ type: "mrkdwn" as const, text: s(2500) })) },
      { type: "context", elements: Array.from({ length: 15 }, () => ({ type: "mrkdwn" as const, text: s(4000) })) },
      actions,
    ];
    const fitted = fitMessage({ text: s(50_000), blocks });
    expect(() => assertWithinSlackLimits(fitted)).not.toThrow();
    expect((fitted.blocks[0] as { text: { text: string } }).text.text).toMatch(/^x+…$/);
  });

  it("keeps at most 50 blocks, saying how many were left out, and keeps the last ones asked for", () => {
    const blocks: KnownBlock[] = [...Array.from({ length: 80 }, (_, i) => section(`row ${i}`)), actions];
    const fitted = fitMessage({ text: "t", blocks }, { keepLast: 1 });
    expect(fitted.blocks).toHaveLength(MAX_MESSAGE_BLOCKS);
    expect(fitted.blocks.at(-1)?.type).toBe("actions");
    expect(JSON.stringify(fitted.blocks.at(-2))).toContain("…and 32 more");
    expect((fitted.blocks[47] as SectionBlock).text?.text).toBe("row 47");
    expect(() => assertWithinSlackLimits(fitted)).not.toThrow();
  });

  it("shortens the longest sections first to keep the blocks' text within its budget", () => {
    const blocks = [section("heading"), ...Array.from({ length: 8 }, () => section(s(2900)))];
    const fitted = fitMessage({ text: "t", blocks });
    expect(blockTextLength(fitted.blocks)).toBeLessThanOrEqual(MAX_MESSAGE_BLOCKS_TEXT);
    expect((fitted.blocks[0] as SectionBlock).text?.text).toBe("heading");
    expect(fitted.blocks).toHaveLength(9);
    expect(() => assertWithinSlackLimits(fitted)).not.toThrow();
  });
});

describe("fitModal and fitHome", () => {
  it("a modal keeps a short title and buttons and at most 100 blocks", () => {
    const view: ModalView = {
      type: "modal",
      title: { type: "plain_text", text: "A very long standup title indeed" },
      submit: { type: "plain_text", text: s(30) },
      close: { type: "plain_text", text: s(30) },
      blocks: Array.from({ length: 130 }, (_, i) => ({
        type: "input" as const,
        block_id: `q${i}`,
        label: { type: "plain_text" as const, text: s(2500) },
        element: { type: "plain_text_input" as const, action_id: "answer" },
      })),
    };
    const fitted = fitModal(view);
    expect(fitted.blocks).toHaveLength(MAX_VIEW_BLOCKS);
    expect(fitted.title.text.length).toBeLessThanOrEqual(24);
    expect(() => assertWithinSlackLimits(fitted)).not.toThrow();
  });

  it("the Home tab keeps its button row when its list is cut", () => {
    const blocks: KnownBlock[] = [...Array.from({ length: 150 }, (_, i) => section(`standup ${i}`)), actions];
    const fitted = fitHome({ type: "home", blocks }, { keepLast: 1, more: (n) => `…and ${n} more in the dashboard` });
    expect(fitted.blocks).toHaveLength(MAX_VIEW_BLOCKS);
    expect(fitted.blocks.at(-1)?.type).toBe("actions");
    expect(JSON.stringify(fitted.blocks.at(-2))).toContain("…and 52 more in the dashboard");
    expect(() => assertWithinSlackLimits(fitted)).not.toThrow();
  });
});
