import { LogLevel, WebAPIPlatformError, WebClient } from "@slack/web-api";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeSlack } from "../../dev/fake-slack/index.ts";
import { assertWithinSlackLimits, slackLimitViolations } from "./slack-limits.ts";

const s = (n: number, ch = "x") => ch.repeat(n);
const section = (text: string) => ({ type: "section", text: { type: "mrkdwn", text } });
const plain = (text: string) => ({ type: "plain_text", text });
const button = (text: string) => ({ type: "button", text: plain(text), action_id: "a", value: "1" });
const select = (options: number, text = "o", placeholder = "Pick") => ({
  type: "static_select",
  action_id: "s",
  placeholder: plain(placeholder),
  options: Array.from({ length: options }, (_, i) => ({ text: plain(text), value: `v${i}` })),
});
const input = (label: string, element: object = { type: "plain_text_input", action_id: "t" }) => ({
  type: "input",
  block_id: "b",
  label: plain(label),
  element,
});
const modal = (over: object = {}) => ({
  type: "modal",
  title: plain("Standup"),
  submit: plain("Submit"),
  close: plain("Cancel"),
  blocks: [input("Question")],
  ...over,
});

describe("assertWithinSlackLimits", () => {
  it("takes payloads exactly at every limit", () => {
    const atLimits = {
      text: s(40_000),
      blocks: [
        section(s(3000)),
        { type: "header", text: plain(s(150)) },
        { type: "section", fields: Array.from({ length: 10 }, () => ({ type: "mrkdwn", text: s(200) })) },
        { type: "context", elements: Array.from({ length: 10 }, () => ({ type: "mrkdwn", text: s(100) })) },
        {
          type: "actions",
          elements: [
            button(s(75)),
            { ...select(100, "o", s(150)), initial_option: { text: plain(s(75)), value: "v0" } },
          ],
        },
        ...Array.from({ length: 45 }, () => ({ type: "divider" })),
      ],
    };
    expect(atLimits.blocks).toHaveLength(50);
    expect(slackLimitViolations(atLimits)).toEqual([]);
    expect(slackLimitViolations(modal({ title: plain(s(24)), submit: plain(s(24)), close: plain(s(24)) }))).toEqual([]);
    expect(
      slackLimitViolations({ view: modal({ blocks: Array.from({ length: 100 }, () => input(s(2000))) }) }),
    ).toEqual([]);
    expect(slackLimitViolations({ type: "home", blocks: Array.from({ length: 100 }, () => section("x")) })).toEqual([]);
    const number = { type: "number_input", action_id: "n", is_decimal_allowed: true, min_value: "1", max_value: "5" };
    const choices = [
      input("q", { ...select(10, s(75)), type: "radio_buttons" }),
      input("q", { ...select(10, s(75)), type: "checkboxes" }),
    ];
    expect(slackLimitViolations(modal({ blocks: [...choices, input("q", number)] }))).toEqual([]);
    expect(() => assertWithinSlackLimits(atLimits)).not.toThrow();
  });

  it("names each limit one character or item past it, with Slack's JSON pointer", () => {
    const cases: [unknown, string][] = [
      [{ blocks: [section(s(3001))] }, "/blocks/0/text/text"],
      [{ blocks: [section("")] }, "/blocks/0/text/text"],
      [{ blocks: [{ type: "header", text: plain(s(151)) }] }, "/blocks/0/text/text"],
      [{ blocks: Array.from({ length: 51 }, () => ({ type: "divider" })) }, "/blocks"],
      [{ text: s(40_001) }, "/text"],
      [{ blocks: [{ type: "section", fields: Array.from({ length: 11 }, () => plain("f")) }] }, "/blocks/0/fields"],
      [{ blocks: [{ type: "section", fields: [plain(s(2001))] }] }, "/blocks/0/fields/0/text"],
      [{ blocks: [{ type: "context", elements: Array.from({ length: 11 }, () => plain("c")) }] }, "/blocks/0/elements"],
      [{ blocks: [{ type: "actions", elements: [button(s(76))] }] }, "/blocks/0/elements/0/text/text"],
      [{ blocks: [{ type: "actions", elements: [select(101)] }] }, "/blocks/0/elements/0/options"],
      [{ blocks: [{ type: "actions", elements: [select(1, s(76))] }] }, "/blocks/0/elements/0/options/0/text/text"],
      [{ blocks: [{ type: "actions", elements: [select(1, "o", s(151))] }] }, "/blocks/0/elements/0/placeholder/text"],
      [modal({ blocks: [input(s(2001))] }), "/view/blocks/0/label/text"],
      [modal({ title: plain(s(25)) }), "/view/title/text"],
      [modal({ submit: plain(s(25)) }), "/view/submit/text"],
      [modal({ close: plain(s(25)) }), "/view/close/text"],
      [modal({ submit: undefined }), "/view"],
      [{ view: modal({ blocks: Array.from({ length: 101 }, () => input("q")) }) }, "/view/blocks"],
      [{ type: "home", blocks: Array.from({ length: 101 }, () => section("x")) }, "/view/blocks"],
      [
        modal({
          blocks: [input("q", { type: "plain_text_input", action_id: "t", max_length: 10, initial_value: s(11) })],
        }),
        "/view/blocks/0/element/initial_value",
      ],
      // Typed questions (issue 25): radio buttons and checkboxes take at most 10 options; numbers go as strings.
      [modal({ blocks: [input("q", { ...select(11), type: "radio_buttons" })] }), "/view/blocks/0/element/options"],
      [modal({ blocks: [input("q", { ...select(11), type: "checkboxes" })] }), "/view/blocks/0/element/options"],
      [
        modal({ blocks: [input("q", { ...select(1, s(76)), type: "checkboxes" })] }),
        "/view/blocks/0/element/options/0/text/text",
      ],
      [
        modal({
          blocks: [input("q", { type: "number_input", action_id: "n", is_decimal_allowed: true, min_value: 1 })],
        }),
        "/view/blocks/0/element/min_value",
      ],
    ];
    for (const [payload, pointer] of cases) {
      const found = slackLimitViolations(payload);
      expect(found, pointer).toEqual([expect.stringContaining(`[json-pointer:${pointer}]`)]);
      expect(() => assertWithinSlackLimits(payload), pointer).toThrow(pointer);
    }
  });

  it("counts the text of all blocks together against the message's budget", () => {
    const four = { blocks: Array.from({ length: 4 }, () => section(s(2900))) };
    expect(slackLimitViolations(four)).toEqual([]);
    const five = { blocks: Array.from({ length: 5 }, () => section(s(2900))) };
    expect(slackLimitViolations(five)).toEqual([expect.stringContaining("msg_blocks_too_long")]);
  });

  it("reads a call the fake recorded", () => {
    const call = { method: "chat.postMessage", args: { channel: "C1", blocks: [section(s(3001))] } };
    expect(slackLimitViolations(call)).toHaveLength(1);
  });
});

describe("the fake Slack refuses payloads past a limit, as Slack does", async () => {
  const fake = await startFakeSlack();
  afterAll(() => fake.close());
  fake.addTeam({ id: "T1", name: "Acme", botToken: "xoxb-acme", botUserId: "UBOT1" });
  fake.addUser("T1", { id: "U1", name: "u1", real_name: "U One" });
  fake.addChannel("T1", { id: "C1", name: "general", members: ["UBOT1", "U1"] });
  const client = new WebClient("xoxb-acme", {
    slackApiUrl: fake.url,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
  });
  const errorOf = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WebAPIPlatformError);
    return (err as WebAPIPlatformError).data;
  };

  it("chat.postMessage: invalid_blocks with Slack's error list, and nothing is posted", async () => {
    const data = await errorOf(
      client.chat.postMessage({ channel: "C1", text: "t", blocks: [section(s(3001))] as never }),
    );
    expect(data.error).toBe("invalid_blocks");
    expect((data as { errors?: string[] }).errors).toEqual([expect.stringContaining("/blocks/0/text/text")]);
    expect(fake.messages("C1")).toHaveLength(0);
  });

  it("chat.postMessage: msg_blocks_too_long when the blocks together hold too much text", async () => {
    const blocks = Array.from({ length: 5 }, () => section(s(2900)));
    expect((await errorOf(client.chat.postMessage({ channel: "C1", text: "t", blocks: blocks as never }))).error).toBe(
      "msg_blocks_too_long",
    );
  });

  it("chat.update keeps the old message when the new blocks break a limit", async () => {
    const posted = await client.chat.postMessage({ channel: "C1", text: "t", blocks: [section("ok")] as never });
    const data = await errorOf(
      client.chat.update({
        channel: "C1",
        ts: posted.ts!,
        text: "t",
        blocks: [{ type: "header", text: plain(s(151)) }] as never,
      }),
    );
    expect(data.error).toBe("invalid_blocks");
    expect(fake.messages("C1").at(-1)?.blocks).toEqual([section("ok")]);
  });

  it("views.open and views.publish: invalid_arguments naming the problem", async () => {
    const open = await errorOf(
      client.views.open({ trigger_id: "1.2.3", view: modal({ title: plain(s(25)) }) as never }),
    );
    expect(open.error).toBe("invalid_arguments");
    expect(open.response_metadata?.messages).toEqual([expect.stringContaining("/view/title/text")]);
    const home = { type: "home", blocks: Array.from({ length: 101 }, () => section("x")) };
    expect((await errorOf(client.views.publish({ user_id: "U1", view: home as never }))).error).toBe(
      "invalid_arguments",
    );
    expect(fake.homeView("T1", "U1")).toBeUndefined();
  });
});
