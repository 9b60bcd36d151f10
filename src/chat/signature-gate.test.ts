import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventEnvelope, sign } from "../../dev/slack-signing.ts";
import { useTestApp } from "../../test/support/app.ts";
import { rows } from "../db/client.ts";
import { SIGNATURE_FAILURES_PER_MINUTE, SignatureGate } from "./signature-gate.ts";

describe("per-address limit on bad Slack signatures", async () => {
  const t = await useTestApp();
  await t.installTeam("T0GATE");

  const challenge = () => JSON.stringify({ token: "x", challenge: "ch4llenge", type: "url_verification" });
  const now = () => t.clock.now().getTime();
  const post = (ip: string, headers: Record<string, string>, payload: string, url = "/chat/events") =>
    t.inject({ method: "POST", url, headers, payload, remoteAddress: ip });
  const valid = (ip: string, url?: string) => post(ip, sign(challenge(), { nowMs: now() }).headers, challenge(), url);
  /** The kinds of failure that count: forged, missing and stale signatures, in turn. */
  const bad = (ip: string, i: number) => {
    const body = challenge();
    const headers = [
      sign(body, { nowMs: now(), secret: "not-the-secret" }).headers,
      { "content-type": "application/json" },
      sign(body, { nowMs: now(), timestamp: Math.floor(now() / 1000) - 600 }).headers,
    ][i % 3]!;
    return post(ip, headers, body);
  };
  const statuses = async (requests: Promise<{ statusCode: number }>[]) =>
    (await Promise.all(requests)).map((r) => r.statusCode);

  it(`past ${SIGNATURE_FAILURES_PER_MINUTE} bad signatures a minute, the address's bad requests are 429 without being read; its validly signed ones are accepted; other addresses are untouched`, async () => {
    t.clock.set("2026-03-02T14:00:15Z");
    // One address for everyone, as behind a load balancer with TRUST_PROXY_HOPS=0.
    const shared = "203.0.113.7";
    for (let i = 0; i < SIGNATURE_FAILURES_PER_MINUTE; i++) expect((await bad(shared, i)).statusCode).toBe(401);
    const over = await bad(shared, 0);
    expect(over.statusCode).toBe(429);
    expect(over.headers["retry-after"]).toBe("45");
    expect(over.json()).toEqual({ error: "Too many requests" });
    expect(await statuses([0, 1, 2].map((i) => bad(shared, i)))).toEqual([429, 429, 429]);

    // Slack's own requests from the same address: verified and accepted, on every endpoint.
    const accepted = await valid(shared);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ challenge: "ch4llenge" });
    expect(await statuses([valid(shared, "/chat/interactions"), valid(shared, "/chat/commands")])).toEqual([200, 200]);
    const event = JSON.stringify(
      eventEnvelope("T0GATE", {
        type: "team_join",
        user: {
          id: "U0SHARED",
          team_id: "T0GATE",
          name: "shared",
          real_name: "Shared Address",
          tz: "UTC",
          deleted: false,
          is_bot: false,
          profile: { real_name: "Shared Address", display_name: "shared", email: "shared@gate.test" },
        },
      }),
    );
    const delivered = await post(shared, sign(event, { nowMs: now() }).headers, event);
    expect(delivered.statusCode).toBe(200);
    await t.app.settle();
    const joined = await rows<{ user_id: string }>(
      t.deps.db,
      sql`select user_id from members where team_id = 'T0GATE' and user_id = 'U0SHARED'`,
    );
    expect(joined).toHaveLength(1);

    // Refused on its headers, before the body is read: an oversized unsigned body is not even a 413.
    const huge = await post(shared, { "content-type": "application/json" }, "x".repeat(2 * 1024 * 1024));
    expect(huge.statusCode).toBe(429);
    // Blocked failures are not counted again (no database write per request of a flood).
    const [counted] = await rows<{ count: number }>(
      t.deps.db,
      sql`select count from rate_limits where bucket = ${`chat-signature:${shared}`}`,
    );
    expect(Number(counted?.count)).toBe(SIGNATURE_FAILURES_PER_MINUTE + 1);

    const other = await valid("203.0.113.8");
    expect(other.statusCode).toBe(200);

    t.clock.set("2026-03-02T14:00:50Z");
    expect((await bad(shared, 0)).headers["retry-after"]).toBe("10");
  });

  it("the block ends with the minute, and failures count afresh in the next one", async () => {
    const attacker = "203.0.113.7";
    t.clock.set("2026-03-02T14:01:00Z");
    expect((await valid(attacker)).statusCode).toBe(200);
    for (let i = 0; i < SIGNATURE_FAILURES_PER_MINUTE; i++) expect((await bad(attacker, i)).statusCode).toBe(401);
    expect((await bad(attacker, 1)).statusCode).toBe(429);
    expect((await valid(attacker)).statusCode).toBe(200);
    t.clock.set("2026-03-02T14:02:00Z");
    expect((await bad(attacker, 1)).statusCode).toBe(401);
  });

  it("validly signed requests are never counted: 200 from one address in a minute all answer 200", async () => {
    t.clock.set("2026-03-02T15:00:00Z");
    const slack = "198.51.100.1";
    for (let i = 0; i < 200; i += 20) {
      const batch = Array.from({ length: 20 }, (_, j) =>
        j % 2 ? valid(slack) : t.sendEvent("T0GATE", { type: "reaction_added", user: "U0X", reaction: "tada" }),
      );
      expect(new Set(await statuses(batch))).toEqual(new Set([200]));
    }
    // The events above came from inject's default address; the counter was never touched for either.
    const counted = await rows<{ bucket: string }>(
      t.deps.db,
      sql`select bucket from rate_limits where bucket like 'chat-signature:%'`,
    );
    expect(counted.map((r) => r.bucket)).not.toContain(`chat-signature:${slack}`);
    expect(counted.map((r) => r.bucket)).not.toContain("chat-signature:127.0.0.1");
  });

  it("another instance refuses the address at the first bad signature it sees: the count is in the database", async () => {
    t.clock.set("2026-03-02T16:00:05Z");
    const [first, second] = [new SignatureGate(t.deps), new SignatureGate(t.deps)];
    const ip = "192.0.2.44";
    for (let i = 0; i < SIGNATURE_FAILURES_PER_MINUTE; i++) expect(await first.fail(ip)).toBe(0);
    expect(await first.fail(ip)).toBe(55);
    expect(first.retryAfter(ip, now())).toBe(55);
    // The second has counted nothing yet, so it lets a valid request through without asking the database...
    expect(second.retryAfter(ip, now())).toBe(0);
    // ...and blocks on its next counted failure.
    expect(await second.fail(ip)).toBe(55);
    expect(second.retryAfter(ip, now())).toBe(55);
  });

  it("remembers a bounded number of blocked addresses, expired ones first, then the oldest", async () => {
    t.clock.set("2026-03-02T17:00:00Z");
    const gate = new SignatureGate(t.deps, 0, 3);
    for (const ip of ["192.0.2.1", "192.0.2.2"]) await gate.fail(ip);
    t.clock.set("2026-03-02T17:01:00Z");
    for (const ip of ["192.0.2.3", "192.0.2.4", "192.0.2.5"]) await gate.fail(ip);
    // The two of the last minute have expired and made room.
    expect(gate.blockedCount).toBe(3);
    await gate.fail("192.0.2.6");
    expect(gate.blockedCount).toBe(3);
    const blocked = ["192.0.2.3", "192.0.2.4", "192.0.2.5", "192.0.2.6"].map((ip) => gate.retryAfter(ip, now()) > 0);
    expect(blocked).toEqual([false, true, true, true]);
  });
});
