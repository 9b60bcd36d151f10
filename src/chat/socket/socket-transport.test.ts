import { setTimeout as sleep } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import { eventEnvelope } from "../../../dev/slack-signing.ts";
import { useTestApp } from "../../../test/support/app.ts";
import { failWrites } from "../../../test/support/faults.ts";

const TEAM = "T0SOCKT";
const USER = "U0SOCKT";

async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  for (let waited = 0; !predicate(); waited += 10) {
    if (waited > timeoutMs) throw new Error("condition not met in time");
    await sleep(10);
  }
}

describe("Socket Mode transport against Slack's behaviour", async () => {
  const t = await useTestApp({ transport: "socket", socket: { reconnectBaseMs: 20, reconnectCapMs: 200 } });
  await t.installTeam(TEAM);
  await t.addMember(TEAM, USER);
  const socket = t.fake.socket;
  const homeOpened = { type: "app_home_opened", user: USER, channel: "D0X", tab: "home" };
  const publishes = () => t.fake.callsTo("views.publish").filter((c) => c.args.user_id === USER).length;
  const opens = () => socket.history.filter((h) => h.event === "open").length;

  beforeEach(async () => {
    await t.app.settle();
    await t.app.socket?.whenConnected();
    t.fake.reset();
    socket.configure({ ackTimeoutMs: 400 });
  });

  it("an envelope whose ack was lost is delivered again by Slack and handled once", async () => {
    socket.loseNextAcks(1);
    const ack = await socket.sendEvent(TEAM, homeOpened, { eventId: "EvSOCKLOST" });
    expect(ack).toMatchObject({ attempt: 1 });
    expect(socket.deliveries.filter((d) => d.envelopeId === ack?.envelopeId)).toHaveLength(2);
    await t.app.settle();
    expect(publishes()).toBe(1);
  });

  it("on disconnect the next socket opens before the old one closes, and an envelope in flight is handled once", async () => {
    const [oldId] = socket.connectionIds;
    const historyBefore = socket.history.length;
    socket.loseNextAcks(1);
    const inFlight = socket.deliver("events_api", eventEnvelope(TEAM, homeOpened, { eventId: "EvSOCKREFRESH" }));
    await until(() => inFlight.attempts === 1);
    // Slack keeps the old socket about 10 s, and so does the fake here: the app lets it go itself once the next one is
    // open (so this costs no time), and a loaded machine (a CI box shared with other jobs) still opens it first.
    socket.disconnect("refresh_requested", { graceMs: 10_000 });
    // Sent while the switch is under way: none is lost.
    const during = await Promise.all(
      [1, 2, 3].map(async (i) => {
        await sleep(i * 60);
        return socket.sendEvent(TEAM, homeOpened, { eventId: `EvSOCKDURING${i}` });
      }),
    );
    expect(during.every((a) => a !== undefined)).toBe(true);
    expect(await inFlight.acked).toMatchObject({ attempt: 1 });
    // The old socket is let go once the next one is open (the app's doing, long before the fake's 10 s).
    await until(
      () => socket.history.slice(historyBefore).some((h) => h.event === "close" && h.connectionId === oldId),
      15_000,
    );
    await socket.waitForConnections(1);
    const switchover = socket.history.slice(historyBefore);
    const newOpen = switchover.findIndex((h) => h.event === "open");
    const oldClose = switchover.findIndex((h) => h.event === "close" && h.connectionId === oldId);
    expect(newOpen).toBeGreaterThanOrEqual(0);
    expect(newOpen).toBeLessThan(oldClose);
    await t.app.settle();
    expect(publishes()).toBe(4);
  });

  it("a dropped connection is opened again, and deliveries carry on", async () => {
    const before = opens();
    socket.drop();
    await until(() => opens() === before + 1 && socket.openConnections === 1);
    await t.app.socket?.whenConnected();
    expect(await socket.sendEvent(TEAM, homeOpened, { eventId: "EvSOCKDROP" })).toMatchObject({ attempt: 0 });
    await t.app.settle();
    expect(publishes()).toBe(1);
  });

  it("a delivery the intake cannot record is not acknowledged; Slack's redelivery is recorded and handled once", async () => {
    const fault = await failWrites(t.deps.db, "chat_events", 1);
    try {
      const ack = await socket.sendEvent(TEAM, homeOpened, { eventId: "EvSOCKDBFAIL" });
      expect(ack).toMatchObject({ attempt: 1 });
    } finally {
      await fault.remove();
    }
    await t.app.settle();
    expect(publishes()).toBe(1);
  });
});

describe("Socket Mode transport: a message Slack's client cannot read", async () => {
  const t = await useTestApp({ transport: "socket" });
  await t.installTeam(TEAM);
  await t.addMember(TEAM, USER);

  it("is left unacknowledged and the process carries on (no unhandled rejection)", async () => {
    await t.app.socket?.whenConnected();
    const rejections: unknown[] = [];
    const onRejection = (err: unknown) => rejections.push(err);
    process.on("unhandledRejection", onRejection);
    try {
      t.fake.socket.configure({ ackTimeoutMs: 200, maxRetries: 0 });
      // An events_api envelope without `event`: Slack's client reads payload.event.type and throws.
      const broken = t.fake.socket.deliver("events_api", { type: "event_callback", team_id: TEAM });
      // Slack gives up on it (undefined) because it was never acknowledged.
      expect(await broken.acked).toBeUndefined();
      expect(rejections).toEqual([]);
      // The same socket still serves the next envelope.
      const ack = await t.fake.socket.sendEvent(TEAM, {
        type: "app_home_opened",
        user: USER,
        channel: "D0X",
        tab: "home",
      });
      expect(ack).toBeDefined();
    } finally {
      process.off("unhandledRejection", onRejection);
    }
  });
});
