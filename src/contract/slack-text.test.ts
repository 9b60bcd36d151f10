import { describe, expect, it } from "vitest";
import { mentionedUserIds, readableSlackText } from "./slack-text.ts";

const names = {
  people: new Map([
    ["U0MAYA", "Maya Okafor"],
    ["U0LUCIA", "Lucía Fernández"],
  ]),
  channels: new Map([["C0TEAM", "team-standup"]]),
};

describe("readableSlackText: Slack mentions as names, never ids", () => {
  it("reads people by name, preferring the current name over Slack's label", () => {
    expect(readableSlackText("Thanks <@U0MAYA> and <@U0LUCIA|lucia>!", names)).toBe(
      "Thanks @Maya Okafor and @Lucía Fernández!",
    );
  });

  it("someone unknown is '@someone', never the id", () => {
    expect(readableSlackText("ask <@U0GONE>", names)).toBe("ask @someone");
    expect(readableSlackText("ask <@U0GONE|old.handle>", names)).toBe("ask @old.handle");
    expect(readableSlackText("ask <@U0GONE>")).toBe("ask @someone");
  });

  it("reads channels by their label, else their known name, else 'a channel'", () => {
    expect(readableSlackText("in <#C0TEAM|renamed>", names)).toBe("in #renamed");
    expect(readableSlackText("in <#C0TEAM>", names)).toBe("in #team-standup");
    expect(readableSlackText("in <#C0LOST>", names)).toBe("in #a channel");
  });

  it("reads user groups and broadcasts; other specials as their fallback text", () => {
    expect(readableSlackText("hi <!subteam^S0DEVS|@devs>", names)).toBe("hi @devs");
    expect(readableSlackText("hi <!subteam^S0DEVS>", names)).toBe("hi @a group");
    expect(readableSlackText("<!here> <!channel> <!everyone>")).toBe("@here @channel @everyone");
    expect(readableSlackText("due <!date^1700000000^{date}|Nov 14>")).toBe("due Nov 14");
  });

  it("links read as their label or address; anything else is left as typed", () => {
    expect(readableSlackText("see <https://x.test/a|the doc> or <https://x.test/b>")).toBe(
      "see the doc or https://x.test/b",
    );
    expect(readableSlackText("mail <mailto:a@b.test>")).toBe("mail a@b.test");
    expect(readableSlackText("a <b> c and 1 < 2 > 0")).toBe("a <b> c and 1 < 2 > 0");
  });

  it("mentionedUserIds lists each mentioned person once", () => {
    expect(mentionedUserIds(["<@U0MAYA> <@U0LUCIA|l>", "again <@U0MAYA>", "<#C0TEAM> <!here>"])).toEqual([
      "U0MAYA",
      "U0LUCIA",
    ]);
  });
});
