import { describe, expect, it } from "vitest";
import { findNul, stripNul } from "./nul.ts";

describe("findNul", () => {
  it("names the first field holding a NUL as error messages name fields", () => {
    expect(findNul({ user_id: "x\u0000y" })).toBe("user_id");
    expect(findNul({ questions: ["ok", "a\u0000"] })).toBe("questions[1]");
    expect(findNul({ a: { b: [{ c: "\u0000" }] } })).toBe("a.b[0].c");
    expect(findNul(["x", "\u0000"])).toBe("[1]");
    expect(findNul("\u0000", "query")).toBe("query");
    expect(findNul({ "k\u0000": 1 })).toBe("a field name");
    expect(findNul({ nested: { "k\u0000": 1 } })).toBe("nested");
  });

  it("finds nothing in clean values, numbers, booleans, null and Buffers", () => {
    expect(findNul({ a: "x", b: [1, true, null, { c: "0x00 \\u0000" }] })).toBeUndefined();
    expect(findNul(undefined)).toBeUndefined();
    expect(findNul(Buffer.from([0, 0]))).toBeUndefined();
  });

  it("walks a value nested far deeper than the call stack would allow", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNul(deep)).toBe("[0]".repeat(100_000));
  });
});

describe("stripNul", () => {
  it("removes NUL from every string and key, keeping everything else", () => {
    const input = { text: "a\u0000b", "k\u0000ey": ["\u0000", 1, null, { deep: "x\u0000" }], ok: true };
    expect(stripNul(input)).toEqual({ text: "ab", key: ["", 1, null, { deep: "x" }], ok: true });
    expect(input.text).toBe("a\u0000b");
    expect(stripNul("plain")).toBe("plain");
    expect(stripNul(5)).toBe(5);
  });
});
