import { describe, expect, it } from "vitest";
import type { EarlyOffer } from "./early-answers.ts";
import { noEarlyAnswerText } from "./early-messages.ts";

describe("/upbeat answer before the window opens", () => {
  const offer = (name: string) =>
    ({
      schedule: { name, channelId: "C0SHARED" },
      localDate: "2026-03-03",
      opensAt: new Date("2026-03-02T21:00:00Z"),
    }) as unknown as EarlyOffer;

  it("names a named standup (two may share a channel), and an unnamed one by its channel", () => {
    expect(noEarlyAnswerText(offer("Platform <daily>"), "Europe/Berlin")).toBe(
      "You can answer *Platform &lt;daily&gt;* (in <#C0SHARED>) for Tuesday 3 March 2026 from Mon 2 Mar, 22:00 GMT+1.",
    );
    expect(noEarlyAnswerText(offer(""), "UTC")).toContain("the standup in <#C0SHARED> for Tuesday 3 March 2026");
  });
});
