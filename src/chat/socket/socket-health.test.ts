import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { eventEnvelope } from "../../../dev/slack-signing.ts";
import { createTestApp, TEST_APP_TOKEN, type TestAppOptions } from "../../../test/support/app.ts";

async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  for (let waited = 0; !predicate(); waited += 10) {
    if (waited > timeoutMs) throw new Error("condition not met in time");
    await sleep(10);
  }
}

/** A test app in Socket Mode that does not wait for its socket, with what it logs. */
async function socketApp(opts: TestAppOptions & { appToken?: string } = {}) {
  const fake = opts.fake ?? (await startFakeSlack());
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const t = await createTestApp({ ...opts, fake, log, env: { CHAT_APP_TOKEN: opts.appToken ?? TEST_APP_TOKEN } });
  const health = async () => {
    const res = await t.inject({ method: "GET", url: "/healthz" });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  const close = async () => {
    await t.close();
    await fake.close();
  };
  return { t, fake, lines, health, close };
}

describe("/healthz in Socket Mode", () => {
  it("says connecting, then 503 after 30 s without a socket (by the clock), then connected", async () => {
    const fake = await startFakeSlack();
    fake.socket.refuseConnections(60_000);
    const { t, health, close } = await socketApp({ fake, socket: { reconnectBaseMs: 20, reconnectCapMs: 100 } });
    try {
      expect(await health()).toEqual({ status: 200, body: { status: "ok", db: "connected", socket: "connecting" } });
      t.clock.advance(30_000);
      expect((await health()).status).toBe(200);
      t.clock.advance(1_000);
      expect(await health()).toEqual({
        status: 503,
        body: { status: "error", db: "connected", socket: "connecting" },
      });

      fake.socket.refuseConnections(0);
      await t.app.socket?.whenConnected();
      expect(await health()).toEqual({ status: 200, body: { status: "ok", db: "connected", socket: "connected" } });

      // Lost again: connecting at once, unhealthy only 30 s later.
      fake.socket.refuseConnections(60_000);
      fake.socket.drop();
      await until(() => t.app.socket?.state === "connecting");
      expect((await health()).body).toMatchObject({ socket: "connecting" });
      expect((await health()).status).toBe(200);
      t.clock.advance(31_000);
      expect((await health()).status).toBe(503);
    } finally {
      await close();
    }
  });
});

/**
 * The waits the transport scheduled (logged with each reconnect) from `from` on. The backoff is asserted on these,
 * which do not depend on the machine's speed, and on the real gaps between attempts only as lower bounds (a timer
 * never fires early; a loaded machine only makes gaps longer), so these tests cannot flake under load.
 */
function scheduledWaits(lines: { msg: string }[], from: number): number[] {
  return lines
    .slice(from)
    .map((l) => (l as { retryInMs?: number }).retryInMs)
    .filter((ms): ms is number => typeof ms === "number");
}

/** Gaps between successive apps.connections.open calls, in ms. */
function gapsBetween(at: number[]): number[] {
  return at.slice(1).map((x, i) => x - (at[i] as number));
}

/** The gaps shorter than the wait scheduled for them (1 ms allowed for the clocks' rounding), as "gap < wait". */
function shorterThanScheduled(gaps: number[], waits: number[]): string[] {
  return gaps.flatMap((gap, i) => (gap < (waits[i] ?? 0) - 1 ? [`${gap} < ${waits[i]}`] : []));
}

describe("reconnecting", () => {
  it("waits longer after each refused attempt (exponential backoff), not in a tight loop", async () => {
    const fake = await startFakeSlack();
    const { t, lines, close } = await socketApp({
      fake,
      socket: { reconnectBaseMs: 20, reconnectCapMs: 10_000, random: () => 0 },
    });
    try {
      await t.app.socket?.whenConnected();
      fake.reset();
      const from = lines.length;
      // Refused until five attempts have failed, however long each takes: a refusal for a fixed second counted
      // fewer attempts on a loaded machine.
      fake.socket.refuseConnections(60_000);
      fake.socket.drop();
      const failures = () => lines.slice(from).filter((l) => l.msg === "Socket Mode: could not connect to Slack");
      await until(() => failures().length >= 5, 15_000);
      fake.socket.refuseConnections(0);
      await t.app.socket?.whenConnected();
      // With no jitter drawn: 10 ms after the drop, then doubling after each failed attempt.
      const waits = scheduledWaits(lines, from);
      expect(waits).toEqual([10, 20, 40, 80, 160, 320]);
      // Five refused attempts and the one that connected: no attempt between the scheduled ones.
      const at = fake.callsTo("apps.connections.open").map((c) => c.at);
      expect(at).toHaveLength(6);
      // Each attempt waited at least its scheduled time after the one before (1 ms for the clocks' rounding).
      const gaps = gapsBetween(at);
      expect(shorterThanScheduled(gaps, waits.slice(1))).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("a failed attempt says why", () => {
  it("a refused WebSocket upgrade is logged as such, not as undefined", async () => {
    const fake = await startFakeSlack();
    fake.socket.refuseConnections(60_000);
    const { lines, close } = await socketApp({ fake, socket: { reconnectBaseMs: 20, reconnectCapMs: 100 } });
    try {
      const failed = () =>
        lines.filter((l) => l.msg === "Socket Mode: could not connect to Slack") as Array<{ err?: unknown }>;
      await until(() => failed().length >= 2);
      for (const line of failed()) expect(line.err).toMatch(/WebSocket to Slack failed or closed before/);
    } finally {
      await close();
    }
  });
});

describe("a connection Slack drops soon after hello, again and again", () => {
  it("is reconnected with growing waits: a hello alone does not reset the backoff", async () => {
    const fake = await startFakeSlack();
    const { t, lines, close } = await socketApp({
      fake,
      socket: { reconnectBaseMs: 20, reconnectCapMs: 10_000, random: () => 0 },
    });
    try {
      await t.app.socket?.whenConnected();
      fake.reset();
      const from = lines.length;
      // A proxy or a Slack edge that accepts the socket and cuts it a moment later: each attempt succeeds.
      for (let drop = 0; drop < 6; drop++) {
        await t.app.socket?.whenConnected();
        fake.socket.drop();
        await until(() => t.app.socket?.state === "connecting");
      }
      await t.app.socket?.whenConnected();
      const at = fake.callsTo("apps.connections.open").map((c) => c.at);
      expect(at).toHaveLength(6);
      // With no jitter drawn: 10, 20, 40, 80, 160, 320 ms; a reset at every hello kept them all at 10 ms (a
      // reconnect loop calling apps.connections.open as fast as Slack lets it open a socket).
      const waits = scheduledWaits(lines, from);
      expect(waits).toEqual([10, 20, 40, 80, 160, 320]);
      // The attempts really waited so (lower bounds: a loaded machine only adds to each gap).
      const gaps = gapsBetween(at);
      expect(shorterThanScheduled(gaps, waits.slice(1))).toEqual([]);
      expect(gaps.at(-1)).toBeGreaterThanOrEqual(150);
    } finally {
      await close();
    }
  });
});

describe("refusals are logged once, naming CHAT_APP_TOKEN", () => {
  it("a refused app token: one error, and attempts only every refusedRetryMs", async () => {
    const fake = await startFakeSlack();
    fake.socket.refuseAppToken("xapp-1-revoked");
    const { t, lines, health, close } = await socketApp({
      fake,
      appToken: "xapp-1-revoked",
      socket: { reconnectBaseMs: 5, refusedRetryMs: 150 },
    });
    try {
      // Three attempts, however long the machine takes: the gaps between them are what shows the pace.
      await until(() => fake.callsTo("apps.connections.open").length >= 3, 15_000);
      const attempts = fake.callsTo("apps.connections.open");
      expect(attempts.every((c) => c.error === "invalid_auth")).toBe(true);
      // Not sooner than refusedRetryMs apart (1 ms for the clocks' rounding); a load only lengthens a gap.
      for (const gap of gapsBetween(attempts.map((c) => c.at))) expect(gap).toBeGreaterThanOrEqual(149);
      const errors = lines.filter((l) => l.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.msg).toMatch(/CHAT_APP_TOKEN \(invalid_auth\)/);
      expect(JSON.stringify(lines)).not.toContain("xapp-1-revoked");
      expect((await health()).body).toMatchObject({ socket: "connecting" });
      t.clock.advance(31_000);
      expect((await health()).status).toBe(503);
    } finally {
      await close();
    }
  });

  it("disconnect with link_disabled: one error, no reconnect until refusedRetryMs", async () => {
    const fake = await startFakeSlack();
    const { t, lines, close } = await socketApp({ fake, socket: { refusedRetryMs: 400 } });
    try {
      await t.app.socket?.whenConnected();
      fake.reset();
      const disconnectedAt = Date.now();
      fake.socket.disconnect("link_disabled", { graceMs: 1_000 });
      await until(() => t.app.socket?.state === "connecting");
      expect(fake.callsTo("apps.connections.open")).toHaveLength(0);
      const errors = lines.filter((l) => l.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.msg).toMatch(/link_disabled.*CHAT_APP_TOKEN/);
      await t.app.socket?.whenConnected();
      const opens = fake.callsTo("apps.connections.open");
      expect(opens).toHaveLength(1);
      // The one attempt came refusedRetryMs after the disconnect at the soonest (checked by the time it was made, not
      // by looking in at a fixed moment, which a loaded machine could miss).
      expect((opens[0]?.at ?? 0) - disconnectedAt).toBeGreaterThanOrEqual(399);
    } finally {
      await close();
    }
  });
});

describe("stopping", () => {
  it("a delivery being recorded when the app stops is acknowledged before the socket closes", async () => {
    const fake = await startFakeSlack();
    const { t, close } = await socketApp({ fake });
    let closed = false;
    try {
      await t.app.socket?.whenConnected();
      // Recording takes a second, so the stop below finds the delivery in flight.
      await t.database.query(
        `create function slow_intake() returns trigger language plpgsql as $$
        begin perform pg_sleep(1); return new; end $$`,
        [],
      );
      await t.database.query(
        "create trigger slow_intake before insert on chat_events for each row execute function slow_intake()",
        [],
      );
      const delivery = fake.socket.deliver("events_api", eventEnvelope("T9", { type: "app_mention" }));
      await until(() => delivery.attempts === 1);
      await sleep(300); // the app has it and is recording it
      const stopping = t.app.stop();
      expect(await delivery.acked).toMatchObject({ attempt: 0 });
      await stopping;
      closed = true;
      expect(fake.socket.openConnections).toBe(0);
      await until(() => fake.socket.history.at(-1)?.event === "close");
    } finally {
      if (!closed) await close();
      else await fake.close();
    }
  });
});
