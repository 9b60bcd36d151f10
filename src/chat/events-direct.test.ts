import { describe, expect, it } from "vitest";
import { useTestApp } from "../../test/support/app.ts";
import { createBolt, type ListenerGroup } from "./bolt.ts";
import { isNotInstalled } from "./intake/failures.ts";
import { FastifyReceiver } from "./receiver.ts";

const TEAM = "T0DIRECT";
const BOT_USER = "B0DIRECTBOT"; // installTeam's bot user for T0DIRECT
const noAck = async () => {};

const eventBody = (event: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "event_callback",
  team_id: TEAM,
  api_app_id: "A0UPBEAT",
  event_id: `Ev${Math.random().toString(36).slice(2)}`,
  event,
  ...extra,
});

/**
 * Events reach our listeners without Bolt's processEvent (events-direct.ts): the listeners must see what Bolt gave
 * them. Each case is run both ways on the same createBolt (the real authorize, client options and middleware), and
 * what the listener saw is compared.
 */
describe("events dispatched without Bolt: what listeners see is what Bolt gave them", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM);
  const seen: { via: string; name: string; args: Record<string, unknown> }[] = [];
  const order: string[] = [];
  const group: ListenerGroup = (listeners) => {
    listeners.use(async ({ body, next }) => {
      order.push("first");
      if ((body as { event?: { text?: string } }).event?.text === "stop here") return;
      await next();
    });
    listeners.use(async ({ next }) => {
      order.push("second");
      await next();
    });
    for (const type of ["message", "app_home_opened", "app_uninstalled", "member_joined_channel", "team_join"]) {
      listeners.event(type, async (args) => {
        order.push(`listener:${type}`);
        seen.push({ via: "", name: type, args: args as unknown as Record<string, unknown> });
        if (type === "team_join") throw new Error("listener failed");
      });
    }
    listeners.action("press", async ({ ack }) => {
      order.push("action");
      await ack();
    });
  };
  const receiver = new FastifyReceiver();
  createBolt(t.deps, receiver, [group]);

  /** What the listeners saw for `body`, through Bolt and directly. */
  const both = async (body: Record<string, unknown>, retry?: { retryNum: number; retryReason: string }) => {
    const out: Record<string, unknown[]> = {};
    for (const via of ["bolt", "direct"] as const) {
      seen.length = 0;
      order.length = 0;
      const run =
        via === "bolt"
          ? receiver.bolt.processEvent({ body, ack: noAck, ...retry })
          : receiver.dispatch(body, noAck, retry);
      const err = await run.then(
        () => undefined,
        (e: unknown) => e,
      );
      out[via] = [[...order], seen.map((s) => describeArgs(s.args)), err];
    }
    return out as { bolt: [string[], unknown[], unknown]; direct: [string[], unknown[], unknown] };
  };

  it("a DM: the same event, message, body, context, client token, say and logger, after the middleware in order", async () => {
    const body = eventBody({ type: "message", channel: "D0DIRECT", channel_type: "im", user: "U0ANA", text: "hi" });
    const { bolt, direct } = await both(body, { retryNum: 1, retryReason: "http_timeout" });
    expect(direct).toEqual(bolt);
    expect(direct[0]).toEqual(["first", "second", "listener:message"]);
    expect(direct[1]).toEqual([
      expect.objectContaining({
        keys: ["body", "client", "context", "event", "logger", "message", "next", "payload", "say"],
        eventIsBodyEvent: true,
        messageIsEvent: true,
        token: `xoxb-${TEAM.toLowerCase()}-token`,
        context: expect.objectContaining({
          teamId: TEAM,
          botUserId: BOT_USER,
          userId: "U0ANA",
          isEnterpriseInstall: false,
          retryNum: 1,
          retryReason: "http_timeout",
        }),
      }),
    ]);
  });

  it("an event without a channel has no say; app_uninstalled is not authorized (no token)", async () => {
    for (const event of [{ type: "app_home_opened", user: "U0ANA", tab: "home" }, { type: "app_uninstalled" }]) {
      const { bolt, direct } = await both(eventBody(event));
      expect(direct).toEqual(bolt);
      expect(direct[1]).toHaveLength(1);
    }
  });

  it("ignores the app's own bot as Bolt's ignoreSelf does, but keeps member_joined_channel", async () => {
    const own = await both(eventBody({ type: "message", channel: "C0X", user: BOT_USER, text: "posted by us" }));
    expect(own.direct).toEqual(own.bolt);
    expect(own.direct[0]).toEqual([]);
    const joined = await both(eventBody({ type: "member_joined_channel", channel: "C0X", user: BOT_USER }));
    expect(joined.direct).toEqual(joined.bolt);
    expect(joined.direct[0]).toEqual(["first", "second", "listener:member_joined_channel"]);
  });

  it("a middleware that does not continue stops the listeners; an event nobody listens to runs the middleware", async () => {
    const stopped = await both(eventBody({ type: "message", channel: "C0X", user: "U0ANA", text: "stop here" }));
    expect(stopped.direct).toEqual(stopped.bolt);
    expect(stopped.direct[0]).toEqual(["first"]);
    const unheard = await both(eventBody({ type: "reaction_added", user: "U0ANA", item: { channel: "C0X" } }));
    expect(unheard.direct).toEqual(unheard.bolt);
    expect(unheard.direct[0]).toEqual(["first", "second"]);
  });

  it("a listener's failure rejects with its error; a workspace not installed rejects as not installed", async () => {
    const direct = await receiver.dispatch(eventBody({ type: "team_join", user: { id: "U0NEW" } }), noAck).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((direct as Error).message).toBe("listener failed");
    const gone = await receiver
      .dispatch(eventBody({ type: "message", channel: "C0X", user: "U0ANA" }, { team_id: "T0NOTHERE" }), noAck)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isNotInstalled(gone)).toBe(true);
  });

  it("interactions still go through Bolt", async () => {
    order.length = 0;
    let acked = false;
    await receiver.dispatch(
      {
        type: "block_actions",
        team: { id: TEAM },
        user: { id: "U0ANA" },
        api_app_id: "A0UPBEAT",
        trigger_id: "1.2.3",
        actions: [{ type: "button", action_id: "press", block_id: "b", value: "v", action_ts: "1.000" }],
      },
      async () => {
        acked = true;
      },
    );
    expect(order).toEqual(["first", "second", "action"]);
    expect(acked).toBe(true);
  });
});

/** The comparable part of a listener's arguments (functions and clients by what they are, not by identity). */
function describeArgs(args: Record<string, unknown>) {
  const body = args.body as { event?: unknown };
  const client = args.client as { token?: string } | undefined;
  // Bolt's context.matches is a RegExp match (index, input); its entries are what listeners read.
  const context = args.context as { matches?: string[] };
  return {
    keys: Object.keys(args).sort(),
    eventIsBodyEvent: args.event === body.event && args.payload === body.event,
    messageIsEvent: args.message === undefined ? undefined : args.message === args.event,
    token: client?.token,
    context: { ...context, ...(context.matches ? { matches: [...context.matches] } : {}) },
    sayIsFunction: typeof args.say === "function",
    loggerIsObject: typeof args.logger === "object",
  };
}
