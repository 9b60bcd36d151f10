import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { eventEnvelope, sign, TEST_SIGNING_SECRET } from "../../dev/slack-signing.ts";
import { useTestApp } from "../../test/support/app.ts";
import { rows } from "../db/client.ts";
import { findInstallation } from "./installations.repo.ts";

const slackUser = (id: string, realName: string, extra: Record<string, unknown> = {}) => ({
  id,
  team_id: "T0RCV",
  name: id.toLowerCase(),
  real_name: realName,
  tz: "Europe/Paris",
  deleted: false,
  is_bot: false,
  profile: { real_name: realName, display_name: id.toLowerCase(), email: `${id.toLowerCase()}@rcv.test` },
  ...extra,
});

describe("Slack request verification and event handling", async () => {
  const t = await useTestApp();
  await t.installTeam("T0RCV");
  const member = async (userId: string) =>
    (
      await rows<{ real_name: string; active: boolean }>(
        t.deps.db,
        sql`select real_name, active from members where team_id = 'T0RCV' and user_id = ${userId}`,
      )
    )[0];

  const post = (body: string, headers: Record<string, string>, url = "/chat/events") =>
    t.inject({ method: "POST", url, headers, payload: body });

  describe("signature corpus: refused with 401 and nothing processed", () => {
    const body = () =>
      JSON.stringify(eventEnvelope("T0RCV", { type: "team_join", user: slackUser("U0EVIL", "Mallory") }));
    const now = () => t.clock.now().getTime();

    it.each([
      ["missing signature", (_b: string) => ({ "content-type": "application/json" }) as Record<string, string>],
      ["wrong signature", (b: string) => ({ ...sign(b, { nowMs: now(), secret: "not-the-secret" }).headers })],
      [
        "stale timestamp (6 minutes old)",
        (b: string) => sign(b, { nowMs: now(), timestamp: Math.floor(now() / 1000) - 360 }).headers,
      ],
      [
        "timestamp 10 minutes in the future",
        (b: string) => sign(b, { nowMs: now(), timestamp: Math.floor(now() / 1000) + 600 }).headers,
      ],
      [
        "missing timestamp",
        (b: string) => {
          const h = { ...sign(b, { nowMs: now() }).headers };
          delete h["x-slack-request-timestamp"];
          return h;
        },
      ],
    ])("%s", async (_name, headersFor) => {
      const b = body();
      const res = await post(b, headersFor(b));
      expect(res.statusCode).toBe(401);
      expect(await member("U0EVIL")).toBeUndefined();
    });

    it("body altered after signing", async () => {
      const b = body();
      const { headers } = sign(b, { nowMs: now() });
      const res = await post(b.replace("Mallory", "Mallory2"), headers);
      expect(res.statusCode).toBe(401);
      expect(await member("U0EVIL")).toBeUndefined();
    });

    it("interactions are verified the same way", async () => {
      const res = await post(
        "payload=%7B%7D",
        { "content-type": "application/x-www-form-urlencoded" },
        "/chat/interactions",
      );
      expect(res.statusCode).toBe(401);
    });

    it("a timestamp 4 minutes old is still accepted", async () => {
      const b = body();
      const res = await post(b, sign(b, { nowMs: now(), timestamp: Math.floor(now() / 1000) - 240 }).headers);
      expect(res.statusCode).toBe(200);
    });

    it("the signature is checked over the bytes as they came, not a decoding of them", async () => {
      // A byte that is not UTF-8 (0xff) inside a string: decoding and re-encoding would change the signed bytes.
      const raw = Buffer.concat([
        Buffer.from('{"type":"url_verification","challenge":"c'),
        Buffer.from([0xff]),
        Buffer.from('"}'),
      ]);
      const ts = Math.floor(now() / 1000);
      const signature = `v0=${createHmac("sha256", TEST_SIGNING_SECRET).update(`v0:${ts}:`).update(raw).digest("hex")}`;
      const headers = {
        "content-type": "application/json",
        "x-slack-request-timestamp": String(ts),
        "x-slack-signature": signature,
      };
      const res = await t.inject({ method: "POST", url: "/chat/events", headers, payload: raw });
      expect(res.statusCode).toBe(200);
      const forged = await t.inject({
        method: "POST",
        url: "/chat/events",
        headers,
        payload: Buffer.concat([raw, Buffer.from(" ")]),
      });
      expect(forged.statusCode).toBe(401);
    });
  });

  it("answers url_verification with the challenge", async () => {
    const b = JSON.stringify({
      token: "x",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
      type: "url_verification",
    });
    const res = await post(b, sign(b, { nowMs: t.clock.now().getTime() }).headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("answers Slack's unsigned ssl_check with 200 and does nothing else", async () => {
    const res = await post("ssl_check=1&token=legacy", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.statusCode).toBe(200);
  });

  it("a retried event (x-slack-retry-num) is answered 200 and processed once", async () => {
    const first = await t.sendEvent(
      "T0RCV",
      { type: "team_join", user: slackUser("U0NEW", "First Name") },
      { eventId: "Ev0RETRY1" },
    );
    expect(first.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await member("U0NEW"))?.real_name).toBe("First Name"));
    // The retry carries the same event id; its (altered) content must not be applied a second time.
    const retry = await t.sendEvent(
      "T0RCV",
      { type: "team_join", user: slackUser("U0NEW", "Second Name") },
      { eventId: "Ev0RETRY1", retryNum: 1 },
    );
    expect(retry.statusCode).toBe(200);
    expect((await member("U0NEW"))?.real_name).toBe("First Name");
    const seen = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from chat_events where event_id = 'Ev0RETRY1'`,
    );
    expect(seen[0]!.n).toBe(1);
  });

  it("NUL in a JSON event (the escape \\u0000) is stripped before a listener sees it or it is stored", async () => {
    const res = await t.sendEvent(
      "T0RCV",
      { type: "team_join", user: slackUser("U0NULL", "Nu\u0000ll", { profile: { real_name: "Nu\u0000ll" } }) },
      { eventId: "Ev0NUL1" },
    );
    expect(res.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await member("U0NULL"))?.real_name).toBe("Null"));
  });

  it("app_uninstalled marks the installation uninstalled, keeps data, ends sessions; reinstalling revives it, not them", async () => {
    await t.addMember("T0RCV", "U0STAY");
    const cookie = await t.signIn("T0RCV", "U0RCVADMIN");
    expect((await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } })).statusCode).toBe(200);

    const res = await t.sendEvent("T0RCV", { type: "app_uninstalled" });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(async () =>
      expect((await findInstallation(t.deps.db, "T0RCV"))?.uninstalledAt).toBeInstanceOf(Date),
    );
    expect(await member("U0STAY")).toBeDefined();
    expect((await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } })).statusCode).toBe(401);
    await expect(t.deps.chat.forTeam("T0RCV")).rejects.toThrow(/not active/);

    await t.installTeam("T0RCV");
    expect((await findInstallation(t.deps.db, "T0RCV"))?.uninstalledAt).toBeNull();
    expect((await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } })).statusCode).toBe(401);
  });

  it("tokens_revoked with bot tokens marks the installation uninstalled; user tokens alone do not", async () => {
    await t.sendEvent("T0RCV", { type: "tokens_revoked", tokens: { oauth: ["U0X"], bot: [] } });
    expect((await findInstallation(t.deps.db, "T0RCV"))?.uninstalledAt).toBeNull();
    await t.sendEvent("T0RCV", { type: "tokens_revoked", tokens: { bot: ["BT0RCV"] } });
    await vi.waitFor(async () =>
      expect((await findInstallation(t.deps.db, "T0RCV"))?.uninstalledAt).toBeInstanceOf(Date),
    );
    await t.installTeam("T0RCV");
  });
});
