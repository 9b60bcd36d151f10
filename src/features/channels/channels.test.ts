import { describe, expect, it } from "vitest";
import type { Fault } from "../../../dev/fake-slack/index.ts";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { channelDirectory } from "./index.ts";

interface ChannelJson {
  id: string;
  name: string;
}

const MINUTE = 60_000;

describe("GET /dashboard/api/channels", async () => {
  const t: TestApp = await useTestApp();

  const getChannels = (cookie: string) =>
    t.inject({ method: "GET", url: "/dashboard/api/channels", headers: { cookie } });
  const listCalls = (teamId: string) => t.fake.callsTo("conversations.list").filter((c) => c.teamId === teamId);

  describe("listing", async () => {
    const TEAM = "T0CHAN";
    const BOT = "B0CHANBOT";
    await t.installTeam(TEAM);
    await t.addMember(TEAM, "U0CHMEMBER");
    const name = (i: number) => `chan-${String(i).padStart(3, "0")}`;
    const id = (i: number) => `C0PUB${String(i).padStart(3, "0")}`;
    // 250 public channels, added out of name order (7 is coprime with 250, so every i appears once).
    for (let k = 0; k < 250; k++) {
      const i = (k * 7) % 250;
      t.fake.addChannel(TEAM, { id: id(i), name: name(i), members: k % 2 === 0 ? [BOT] : [] });
    }
    for (let i = 0; i < 4; i++) {
      t.fake.addChannel(TEAM, { id: `C0ARCH${i}`, name: `archived-${i}`, is_archived: true, members: [BOT] });
    }
    t.fake.addChannel(TEAM, {
      id: "G0PRIV1",
      name: "private-with-bot",
      is_private: true,
      members: [BOT, "U0CHMEMBER"],
    });
    t.fake.addChannel(TEAM, { id: "G0PRIV2", name: "private-without-bot", is_private: true, members: ["U0CHMEMBER"] });
    const admin = await t.signIn(TEAM, "U0CHANADMIN");
    const member = await t.signIn(TEAM, "U0CHMEMBER");
    const expected: ChannelJson[] = Array.from({ length: 250 }, (_, i) => ({ id: id(i), name: name(i) }));

    it("returns [{id, name}] of every public non-archived channel across pages of 200, sorted by name", async () => {
      const before = listCalls(TEAM).length;
      const res = await getChannels(admin);
      expect(res.statusCode).toBe(200);
      expect(String(res.headers["content-type"])).toContain("application/json");
      const body = res.json() as ChannelJson[];
      expect(body).toHaveLength(250);
      expect(body).toEqual(expected);
      for (const c of body) expect(Object.keys(c).sort()).toEqual(["id", "name"]);

      const calls = listCalls(TEAM).slice(before);
      expect(calls).toHaveLength(2);
      expect(calls.every((c) => c.ok)).toBe(true);
      expect(calls.map((c) => c.args.limit)).toEqual(["200", "200"]);
      expect(calls.map((c) => c.args.types)).toEqual(["public_channel", "public_channel"]);
      expect(calls[0]!.args.cursor).toBeUndefined();
      expect(calls[1]!.args.cursor).toEqual(expect.any(String));
      expect(calls[1]!.args.cursor).not.toBe("");
    });

    it("leaves out archived and private channels, even private ones the bot is in", async () => {
      const body = (await getChannels(admin)).json() as ChannelJson[];
      const ids = body.map((c) => c.id);
      for (const gone of ["C0ARCH0", "C0ARCH1", "C0ARCH2", "C0ARCH3", "G0PRIV1", "G0PRIV2"]) {
        expect(ids, gone).not.toContain(gone);
      }
      expect(body.map((c) => c.name).filter((n) => !n.startsWith("chan-"))).toEqual([]);
    });

    it("is open to any signed-in member, not only admins, and needs a session", async () => {
      const res = await getChannels(member);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(expected);
      const anonymous = await t.inject({ method: "GET", url: "/dashboard/api/channels" });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ error: "Unauthorized" });
    });
  });

  describe("cache per workspace, at most 60 s", async () => {
    const A = "T0CACHEA";
    const B = "T0CACHEB";
    await t.installTeam(A);
    await t.installTeam(B);
    t.fake.addChannel(A, { id: "C0AGEN", name: "general", members: [] });
    t.fake.addChannel(A, { id: "C0ASTAND", name: "alpha-standup", members: [] });
    t.fake.addChannel(B, { id: "C0BGEN", name: "beta-general", members: [] });
    const adminA = await t.signIn(A, "U0CACHEAADMIN");
    const adminB = await t.signIn(B, "U0CACHEBADMIN");

    it("a second call within 60 s makes no new conversations.list call; after 61 s Slack is asked again", async () => {
      const start = listCalls(A).length;
      const first = await getChannels(adminA);
      expect(first.json()).toEqual([
        { id: "C0ASTAND", name: "alpha-standup" },
        { id: "C0AGEN", name: "general" },
      ]);
      expect(listCalls(A).length).toBe(start + 1);

      // A channel created on Slack is not seen while the cached list is fresh.
      t.fake.addChannel(A, { id: "C0ANEW", name: "brand-new", members: [] });
      t.clock.advance(30_000);
      const cached = await getChannels(adminA);
      expect(cached.json()).toEqual(first.json());
      t.clock.advance(29_000);
      expect((await getChannels(adminA)).json()).toEqual(first.json());
      expect(listCalls(A).length).toBe(start + 1);

      t.clock.advance(2_000); // 61 s after the first call
      const fresh = await getChannels(adminA);
      expect(fresh.statusCode).toBe(200);
      expect(listCalls(A).length).toBe(start + 2);
      expect(fresh.json()).toEqual([
        { id: "C0ASTAND", name: "alpha-standup" },
        { id: "C0ANEW", name: "brand-new" },
        { id: "C0AGEN", name: "general" },
      ]);

      // The refreshed list is cached again.
      t.clock.advance(10_000);
      await getChannels(adminA);
      expect(listCalls(A).length).toBe(start + 2);
    });

    it("another workspace's list is fetched and cached separately, with its own token", async () => {
      t.clock.advance(2 * MINUTE);
      const beforeA = listCalls(A).length;
      const beforeB = listCalls(B).length;
      expect((await getChannels(adminA)).json()).toEqual(expect.arrayContaining([{ id: "C0AGEN", name: "general" }]));
      expect(listCalls(A).length).toBe(beforeA + 1);

      // A's fresh cache does not answer for B.
      const b = await getChannels(adminB);
      expect(b.json()).toEqual([{ id: "C0BGEN", name: "beta-general" }]);
      expect(listCalls(B).length).toBe(beforeB + 1);
      expect(listCalls(B).at(-1)?.token).toBe("xoxb-t0cacheb-token");

      // And B's cache does not answer for A or vice versa.
      expect((await getChannels(adminA)).json()).not.toContainEqual({ id: "C0BGEN", name: "beta-general" });
      expect((await getChannels(adminB)).json()).toEqual([{ id: "C0BGEN", name: "beta-general" }]);
      expect(listCalls(A).length).toBe(beforeA + 1);
      expect(listCalls(B).length).toBe(beforeB + 1);
    });
  });

  describe("when Slack is down", async () => {
    const TEAM = "T0CHDOWN";
    await t.installTeam(TEAM);
    t.fake.addChannel(TEAM, { id: "C0DGEN", name: "general", members: [] });
    const admin = await t.signIn(TEAM, "U0CHDOWNADMIN");

    it.each<[string, Fault]>([
      ["the connection drops", { drop: true }],
      ["Slack answers HTTP 500", { status: 500 }],
      ["Slack answers HTTP 503", { status: 503 }],
      ["Slack answers an API error", { error: "internal_error" }],
    ])("500 JSON {error} without a stack trace when %s, and the failure is not cached", async (_name, fault) => {
      try {
        t.clock.advance(2 * MINUTE); // past any cached list
        t.fake.fail("conversations.list", fault, 10);
        const res = await getChannels(admin);
        expect(res.statusCode).toBe(500);
        expect(String(res.headers["content-type"])).toContain("application/json");
        const body = res.json() as Record<string, unknown>;
        expect(Object.keys(body)).toEqual(["error"]);
        expect(body.error).toEqual(expect.any(String));
        expect(res.body).not.toMatch(/\.ts:\d+|node_modules|\bat\s.+:\d+|stack/i);
      } finally {
        t.fake.reset();
      }
      const ok = await getChannels(admin);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual([{ id: "C0DGEN", name: "general" }]);
    });

    it("500 JSON after a bounded wait when Slack keeps answering 429 rate limited", async () => {
      try {
        t.clock.advance(2 * MINUTE);
        const before = t.fake.callsTo("conversations.list").length;
        t.fake.fail("conversations.list", { status: 429, retryAfter: 1 }, 10);
        const res = await getChannels(admin);
        expect(res.statusCode).toBe(500);
        expect(Object.keys(res.json() as object)).toEqual(["error"]);
        expect(t.fake.callsTo("conversations.list").length - before).toBeLessThanOrEqual(3);
      } finally {
        t.fake.reset();
      }
    });

    it("views that only show names ask a failing Slack once per 30 s, not on every request", async () => {
      t.clock.advance(2 * MINUTE);
      const directory = channelDirectory(t.deps);
      try {
        t.fake.fail("conversations.list", { status: 503 }, 100);
        const before = listCalls(TEAM).length;
        expect(await directory.listOrNothing(TEAM, 3_000)).toBeUndefined();
        const asked = listCalls(TEAM).length;
        expect(asked).toBeGreaterThan(before);
        t.clock.advance(29_000);
        expect(await directory.listOrNothing(TEAM, 3_000)).toBeUndefined();
        expect(listCalls(TEAM)).toHaveLength(asked);
        // The picker still asks Slack itself, and says it failed.
        expect((await getChannels(admin)).statusCode).toBe(500);
      } finally {
        t.fake.reset();
      }
      t.clock.advance(1_000);
      expect(await directory.listOrNothing(TEAM, 3_000)).toEqual([{ id: "C0DGEN", name: "general" }]);
    });

    it("a cached list is still served within 60 s while Slack is down", async () => {
      t.clock.advance(2 * MINUTE);
      expect((await getChannels(admin)).statusCode).toBe(200);
      try {
        t.fake.fail("conversations.list", { status: 503 }, 10);
        t.clock.advance(30_000);
        const res = await getChannels(admin);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([{ id: "C0DGEN", name: "general" }]);
        expect(t.fake.callsTo("conversations.list").filter((c) => c.faulted)).toHaveLength(0);
      } finally {
        t.fake.reset();
      }
    });
  });
});
