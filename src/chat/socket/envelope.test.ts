import { describe, expect, it } from "vitest";
import { deliveryKey } from "../intake/intake.ts";
import { reconnectDelay } from "./backoff.ts";
import { ackPayload, deliveryOf } from "./envelope.ts";

describe("envelopes as intake deliveries", () => {
  const command = { command: "/upbeat", text: "help", team_id: "T1", user_id: "U1", trigger_id: "trig.1" };

  it("maps each envelope type to its kind, and an events_api retry to the intake's retry", () => {
    expect(deliveryOf({ type: "events_api", body: { event_id: "Ev1" }, retry_num: 0, retry_reason: "" })).toEqual({
      kind: "event",
      body: { event_id: "Ev1" },
      raw: '{"event_id":"Ev1"}',
      // Nothing to strip: the text is stored as it is, not serialised again.
      json: '{"event_id":"Ev1"}',
    });
    expect(
      deliveryOf({ type: "events_api", body: { event_id: "Ev1" }, retry_num: 2, retry_reason: "timeout" }),
    ).toMatchObject({ retry: { retryNum: 2, retryReason: "timeout" } });
    expect(deliveryOf({ type: "slash_commands", body: command })?.kind).toBe("command");
    expect(deliveryOf({ type: "interactive", body: { type: "block_actions" } })?.kind).toBe("interaction");
    expect(deliveryOf({ type: "something_new", body: {} })).toBeUndefined();
    expect(deliveryOf({ type: "events_api", body: "text" })).toBeUndefined();
  });

  it("a redelivered command lands on the same key (payload bytes, never the envelope)", () => {
    const first = deliveryOf({ type: "slash_commands", body: structuredClone(command) });
    const again = deliveryOf({ type: "slash_commands", body: structuredClone(command) });
    expect(first && again && deliveryKey(first)).toBe(again && deliveryKey(again));
  });

  it("strips NUL from what people typed, as over HTTP", () => {
    const stripped = deliveryOf({ type: "slash_commands", body: { ...command, text: "a\u0000b" } });
    expect(stripped?.body.text).toBe("ab");
    // The payload's own text holds the NUL: the stripped body is what gets stored.
    expect(stripped?.json).toBeUndefined();
    const nested = deliveryOf({ type: "events_api", body: { event_id: "Ev2", event: { text: ["x\u0000"] } } });
    expect(nested?.body).toEqual({ event_id: "Ev2", event: { text: ["x"] } });
    expect(nested?.json).toBeUndefined();
  });

  it("acknowledges with the intake's answer, and with nothing for an empty one", () => {
    expect(ackPayload(undefined)).toBeUndefined();
    expect(ackPayload("")).toBeUndefined();
    expect(ackPayload("Done")).toBe("Done");
    expect(ackPayload({ response_action: "errors", errors: {} })).toEqual({ response_action: "errors", errors: {} });
  });
});

describe("reconnect delay", () => {
  it("doubles from the base up to the cap, with a random half on top of a fixed half", () => {
    expect([0, 1, 2, 3].map((n) => reconnectDelay(n, () => 0, 1_000, 60_000))).toEqual([500, 1_000, 2_000, 4_000]);
    expect([0, 1, 2, 3].map((n) => reconnectDelay(n, () => 1, 1_000, 60_000))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(reconnectDelay(20, () => 1, 1_000, 60_000)).toBe(60_000);
    expect(reconnectDelay(1_000, () => 0.5, 1_000, 60_000)).toBe(45_000);
  });

  it("spreads instances that lost Slack at the same moment", () => {
    const delays = new Set(Array.from({ length: 20 }, () => reconnectDelay(3)));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(4_000);
  });
});
