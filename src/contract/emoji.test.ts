import { describe, expect, it } from "vitest";
import { escapeHtml } from "../lib/html.ts";
import { emojiFor, emojify } from "./emoji.ts";

describe("Slack emoji shortcodes", () => {
  it("turns the shortcodes people type in standups into emoji", () => {
    expect(emojify("No blockers :saluting_face:")).toBe("No blockers 🫡");
    expect(emojify(":+1: sounds good :tada::tada:")).toBe("👍 sounds good 🎉🎉");
    expect(emojify(":thumbsup: :-1: :white_check_mark: :rocket:")).toBe("👍 👎 ✅ 🚀");
  });

  it("drops a skin tone after the shortcode", () => {
    expect(emojify("thanks :+1::skin-tone-3: and :wave::skin-tone-6:")).toBe("thanks 👍 and 👋");
  });

  it("keeps unknown and custom shortcodes as typed, and still finds a known one right after", () => {
    expect(emojify(":partyparrot: :not_an_emoji:")).toBe(":partyparrot: :not_an_emoji:");
    expect(emojify("at 10:30:tada:")).toBe("at 10:30🎉");
    expect(emojify("ratio 3:2 and a:b:c")).toBe("ratio 3:2 and a:b:c");
    expect(emojify(":skin-tone-2:")).toBe(":skin-tone-2:");
    expect(emojify(":TADA:")).toBe(":TADA:");
    expect(emojiFor("constructor")).toBeUndefined();
    expect(emojify(":constructor: :__proto__: :toString:")).toBe(":constructor: :__proto__: :toString:");
  });

  it("never replaces inside inline code or code blocks", () => {
    expect(emojify("run `echo :tada:` then :tada:")).toBe("run `echo :tada:` then 🎉");
    expect(emojify("```\nfoo :rocket:\n``` :rocket:")).toBe("```\nfoo :rocket:\n``` 🚀");
    // An unclosed backtick is not code: Slack shows it as a backtick.
    expect(emojify("it`s done :tada:")).toBe("it`s done 🎉");
  });

  it("is safe on escaped HTML: escape first, then substitute", () => {
    const html = emojify(escapeHtml('<img src=x onerror="alert(1)"> :fire: & `<b>:fire:</b>`'));
    expect(html).toBe("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; 🔥 &amp; `&lt;b&gt;:fire:&lt;/b&gt;`");
  });
});
