import { describe, expect, it } from "vitest";
import { joinWithMore, safeCut, shareBudget, splitText, truncate } from "./block-text.ts";

const EMOJI = "😀"; // two UTF-16 code units

/** No lone surrogate, no token or entity cut open. */
function expectWhole(piece: string) {
  // With the u flag a whole pair is one code point: only a lone surrogate matches.
  expect(piece, piece).not.toMatch(/[\ud800-\udfff]/u);
  expect(piece.split("<").length, piece).toBe(piece.split(">").length);
  expect(piece, piece).not.toMatch(/&[a-z#\d]*$/i);
}

describe("safeCut", () => {
  it("moves a cut out of a surrogate pair, a Slack token and an entity", () => {
    const text = `ab${EMOJI}cd`;
    expect(safeCut(text, 3)).toBe(2);
    expect(safeCut("hi <@U0123ABC> there", 8)).toBe(3);
    expect(safeCut("hi <#C0123|general> there", 12)).toBe(3);
    expect(safeCut("see <https://example.com/a|the doc> now", 20)).toBe(4);
    expect(safeCut("a &amp; b", 4)).toBe(2);
    expect(safeCut("a &lt;b&gt;", 9)).toBe(7);
  });

  it("leaves a cut that is already safe where it is", () => {
    expect(safeCut("hi <@U0123ABC> there", 14)).toBe(14);
    expect(safeCut("a &amp; b", 7)).toBe(7);
    expect(safeCut("plain text", 5)).toBe(5);
    expect(safeCut("short", 99)).toBe(5);
  });
});

describe("truncate", () => {
  it("keeps text that fits and ends cut text with an ellipsis within the limit", () => {
    expect(truncate("hello", 5)).toBe("hello");
    expect(truncate("hello world", 8)).toBe("hello w…");
    expect(truncate("hello world", 8).length).toBeLessThanOrEqual(8);
  });

  it("ends at a word when one ends near the limit", () => {
    expect(truncate("the quick brown fox jumps over", 22)).toBe("the quick brown fox…");
    expect(truncate("see <https://x.test/a|a long label> now", 30)).toBe("see…");
  });

  it("never cuts an emoji, a mention, a channel, a link or an entity in half", () => {
    const text = `${EMOJI.repeat(3)} <@U0AAA> <#C0BBB|team> <https://x.test/p|a link> &amp; &lt;3 ${EMOJI}`;
    for (let max = 2; max <= text.length; max++) {
      const out = truncate(text, max);
      expect(out.length, String(max)).toBeLessThanOrEqual(max);
      expectWhole(out);
    }
  });
});

describe("splitText", () => {
  it("returns pieces within the limit that join back to the text, cutting at line breaks first", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}: ${"word ".repeat(i % 7)}`);
    const text = lines.join("\n");
    const pieces = splitText(text, 100);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(100);
    expect(pieces.join("\n")).toBe(text);
  });

  it("cuts a long run without breaks safely, losing nothing", () => {
    const text = `${EMOJI}<@U0AAA>`.repeat(300);
    const pieces = splitText(text, 97);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(97);
      expectWhole(p);
    }
    expect(pieces.join("")).toBe(text);
  });

  it("gives one piece for text that fits, empty text included", () => {
    expect(splitText("short", 10)).toEqual(["short"]);
    expect(splitText("", 10)).toEqual([""]);
  });
});

describe("joinWithMore", () => {
  const people = Array.from({ length: 60 }, (_, i) => `<@U0P${String(i).padStart(4, "0")}>`);

  it("joins everything that fits", () => {
    expect(joinWithMore(["a", "b", "c"], 100, { separator: ", " })).toBe("a, b, c");
  });

  it("ends with …and N more for the items left out, within the limit", () => {
    const out = joinWithMore(people, 100, { separator: ", " });
    expect(out.length).toBeLessThanOrEqual(100);
    const shown = out.split(", ").filter((p) => p.startsWith("<@"));
    expect(out.endsWith(`…and ${60 - shown.length} more`)).toBe(true);
    expect(shown).toEqual(people.slice(0, shown.length));
  });

  it("truncates a first item too long to fit alone, and still counts the others", () => {
    const out = joinWithMore(["x".repeat(500), "b", "c"], 50);
    expect(out.length).toBeLessThanOrEqual(50);
    expect(out).toMatch(/^x+…\n…and 2 more$/);
  });

  it("takes a wording of its own for the rest", () => {
    expect(joinWithMore(["aaa", "bbb", "ccc"], 10, { separator: " ", more: (n) => `+${n}` })).toBe("aaa bbb +1");
  });
});

describe("shareBudget", () => {
  it("keeps texts that fit together", () => {
    expect(shareBudget(["a", "bb"], 3)).toEqual(["a", "bb"]);
  });

  it("shortens the longest first and keeps short ones whole", () => {
    const out = shareBudget(["short", "x".repeat(5000), "y".repeat(3000), "z".repeat(100)], 1000);
    expect(out[0]).toBe("short");
    expect(out[3]).toBe("z".repeat(100));
    expect(out[1]!.endsWith("…")).toBe(true);
    expect(out[2]!.endsWith("…")).toBe(true);
    expect(out.reduce((n, t) => n + t.length, 0)).toBeLessThanOrEqual(1000);
    expect(Math.abs(out[1]!.length - out[2]!.length)).toBeLessThanOrEqual(1);
  });
});
