import { describe, expect, it } from "vitest";
import { askMessage } from "./messages.ts";

const run = { id: 7, channelId: "C0TEAMSTND", localDate: "2026-03-02", questions: ["Yesterday?", "Today?"] };

describe("askMessage", () => {
  it("names the channel as a mention in the notification text, never as a bare id", () => {
    const m = askMessage(run);
    expect(m.text).toBe("Time for standup in <#C0TEAMSTND>");
    // Slack shows <#C…> as #channel-name; a bare "#C0TEAMSTND" would reach the phone's notification as an id.
    expect(m.text.replace(/<#C0TEAMSTND>/g, "")).not.toContain("C0TEAMSTND");
    expect(JSON.stringify(m.blocks).replace(/<#C0TEAMSTND>/g, "")).not.toContain("C0TEAMSTND");
  });
});
