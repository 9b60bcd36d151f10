import { App, LogLevel } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { FastifyReceiver } from "./receiver.ts";
import { ChatRouter, HELP_VERB } from "./router.ts";

/** A real Bolt App on our receiver; requests are handed to it as the receiver does, with an ack we can watch. */
function boltWithRouter() {
  const receiver = new FastifyReceiver();
  const errors: unknown[] = [];
  const bolt = new App({
    receiver,
    convoStore: false,
    logLevel: LogLevel.ERROR,
    authorize: async () => ({ botToken: "xoxb-router-test", botUserId: "B0ROUTER", teamId: "T0ROUTER" }),
  });
  bolt.error(async (err) => {
    errors.push(err);
  });
  const router = new ChatRouter(bolt);
  const send = async (body: Record<string, unknown>) => {
    let acked = false;
    await bolt.processEvent({
      body,
      ack: async () => {
        acked = true;
      },
    });
    return acked;
  };
  return { router, listeners: router.listeners, errors, send };
}

const event = (type: string, extra: Record<string, unknown> = {}) => ({
  type: "event_callback",
  team_id: "T0ROUTER",
  api_app_id: "A0UPBEAT",
  event_id: `Ev${Math.random()}`,
  event: { type, user: "U0ROUTER", channel: "D0ROUTER", ts: "1.000", ...extra },
});
const action = (actionId: string) => ({
  type: "block_actions",
  team: { id: "T0ROUTER" },
  user: { id: "U0ROUTER" },
  api_app_id: "A0UPBEAT",
  trigger_id: "1.2.3",
  actions: [{ type: "button", action_id: actionId, block_id: "b", value: "v", action_ts: "1.000" }],
});
const submission = (callbackId: string) => ({
  type: "view_submission",
  team: { id: "T0ROUTER" },
  user: { id: "U0ROUTER" },
  api_app_id: "A0UPBEAT",
  view: { id: "V1", callback_id: callbackId, state: { values: {} }, private_metadata: "" },
});

describe("ChatRouter: one Bolt listener per kind, listeners picked from a map", () => {
  it("runs every listener of an event type, and only those", async () => {
    const { router, listeners, send } = boltWithRouter();
    const ran: string[] = [];
    listeners.event("message", async ({ event }) => {
      ran.push(`first:${event.type}`);
    });
    listeners.event("message", async () => {
      ran.push("second");
    });
    listeners.event("app_home_opened", async () => {
      ran.push("home");
    });
    router.mount();
    expect(await send(event("message", { text: "hi" }))).toBe(true); // events are acked by Bolt itself
    expect(ran.sort()).toEqual(["first:message", "second"]);
    ran.length = 0;
    await send(event("reaction_added"));
    expect(ran).toEqual([]);
  });

  it("picks actions by action_id and views by callback_id; what nothing listens to is not acked", async () => {
    const { router, listeners, send } = boltWithRouter();
    const ran: string[] = [];
    listeners.action("upbeat_answer", async ({ ack, action: a }) => {
      ran.push(`action:${(a as { value?: string }).value}`);
      await ack();
    });
    listeners.view("upbeat_modal", async ({ ack, view }) => {
      ran.push(`view:${view.id}`);
      await ack();
    });
    router.mount();
    expect(await send(action("upbeat_answer"))).toBe(true);
    expect(await send(submission("upbeat_modal"))).toBe(true);
    expect(ran).toEqual(["action:v", "view:V1"]);
    expect(await send(action("someone_elses_button"))).toBe(false);
    expect(await send(submission("someone_elses_modal"))).toBe(false);
    expect(ran).toHaveLength(2);
  });

  it("a listener that throws reaches Bolt's error handler; the other listeners of the event still run", async () => {
    const { router, listeners, errors, send } = boltWithRouter();
    let ranOther = false;
    listeners.event("team_join", async () => {
      throw new Error("listener broke");
    });
    listeners.event("team_join", async () => {
      ranOther = true;
    });
    router.mount();
    await send(event("team_join"));
    expect(ranOther).toBe(true);
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toContain("listener broke");
  });

  it("takes only a string key and one function (the map could not match anything else)", () => {
    const { listeners } = boltWithRouter();
    expect(() => listeners.event(/message/ as unknown as string, async () => {})).toThrow(/string and one function/);
    expect(() =>
      (listeners.action as unknown as (...a: unknown[]) => void)(
        "x",
        async () => {},
        async () => {},
      ),
    ).toThrow(/string and one function/);
  });

  it("dispatches slash-command verbs by the first word, any case; empty text and unknown verbs get help", async () => {
    const { router, listeners, send } = boltWithRouter();
    const ran: string[] = [];
    listeners.verb("kudos", async ({ ack, rest }) => {
      ran.push(`kudos:${rest}`);
      await ack();
    });
    listeners.verb(HELP_VERB, async ({ ack, rest }) => {
      ran.push(`help:${rest}`);
      await ack();
    });
    router.mount();
    const command = (text: string) => ({
      command: "/whatever-the-app-calls-it",
      text,
      team_id: "T0ROUTER",
      user_id: "U0ROUTER",
      channel_id: "C0ROUTER",
      trigger_id: "1.2.3",
      api_app_id: "A0UPBEAT",
      response_url: "http://127.0.0.1:1/unused",
    });
    expect(await send(command("KUDOS <@U2> Thanks A Lot"))).toBe(true);
    expect(await send(command(""))).toBe(true);
    expect(await send(command("dance now"))).toBe(true);
    expect(ran).toEqual(["kudos: <@U2> Thanks A Lot", "help:", "help:dance now"]);
    expect(() => listeners.verb("Kudos", async () => {})).toThrow(/registered twice/);
  });
});
