import { DateTime } from "luxon";
import { afterAll, describe, expect, it } from "vitest";
import { ADMIN, DEMO_TEAM, MEMBER, PRODUCT_CHANNEL } from "../demo/people.ts";
import { startDemoReceiver } from "../demo/receiver.ts";
import { PLATFORM_STANDUP, PRODUCT_STANDUP, populateFakeSlack, seedDemo } from "../demo/seed.ts";
import { giveTodaysKudos, seedRuleAndWebhook } from "../demo/seed-live.ts";
import { AWAY_TODAY } from "../demo/seed-people.ts";
import { tick } from "../src/features/standups/index.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { useTestApp } from "./support/app.ts";

// A Wednesday afternoon: yesterday's product run is the one the first tick closes.
const NOW = "2026-03-04T15:00:00Z";
const TODAY = "2026-03-04";

describe("the demo's seed, on a fresh database, through the real API", async () => {
  const receiver = await startDemoReceiver();
  afterAll(() => receiver.close());
  const t = await useTestApp({
    clock: new ManualClock(NOW),
    // As demo/main.ts runs it: private addresses allowed the documented way, plain http to its own receiver.
    env: { WEBHOOK_ALLOW_PRIVATE: "true" },
    outbound: { allowPlainHttp: true },
    demoSignIn: {
      teamId: DEMO_TEAM.id,
      userId: ADMIN.id,
      name: ADMIN.realName,
      member: { userId: MEMBER.id, name: MEMBER.realName },
    },
  });
  populateFakeSlack(t.fake);

  /** One demo start: seed, the live parts, a scheduler tick and every job it queued. */
  async function start() {
    await seedDemo(t.deps);
    await seedRuleAndWebhook(t.deps, receiver.url);
    await giveTodaysKudos(t.deps);
    await tick(t.deps);
    await t.deps.queue.drain();
  }
  await start();
  const admin = await t.signIn(DEMO_TEAM.id, ADMIN.id);
  const get = async (url: string) => {
    const res = await t.inject({ method: "GET", url, headers: { cookie: admin } });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };

  it("has two standups in two channels, each name once", async () => {
    const standups = (await get("/dashboard/api/standups")) as { name: string; channel_id: string }[];
    expect(standups.map((s) => s.name).sort()).toEqual([PLATFORM_STANDUP, PRODUCT_STANDUP].sort());
    expect(new Set(standups.map((s) => s.channel_id)).size).toBe(2);
  });

  it("has kudos, a birthday and a work anniversary within 7 days, and someone away today", async () => {
    expect(((await get("/dashboard/api/kudos")) as unknown[]).length).toBeGreaterThan(10);
    const week = DateTime.fromISO(TODAY).plus({ days: 7 }).toISODate()!;
    const soon = (
      (await get("/dashboard/api/celebrations/upcoming")) as { kind: string; date: string; name: string }[]
    ).filter((c) => c.date >= TODAY && c.date <= week);
    expect(soon.filter((c) => c.kind === "birthday").length).toBeGreaterThan(0);
    expect(soon.filter((c) => c.kind === "anniversary").length).toBe(1);
    const away = (await get("/dashboard/api/time-off")) as {
      items: { user_id: string; start_date: string; end_date: string }[];
    };
    expect(away.items.some((r) => r.user_id === AWAY_TODAY.id && r.start_date <= TODAY && r.end_date >= TODAY)).toBe(
      true,
    );
  });

  it("the rule fired when the scheduler closed yesterday's product run: its alert is in #team-standup", () => {
    // The rule's own footer tells its alert from the run's summary posted in the same channel.
    const alerts = t.fake
      .messages(PRODUCT_CHANNEL.id)
      .filter((m) => JSON.stringify(m.blocks ?? []).includes("Sent by a workflow rule"));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.text).toContain(PRODUCT_STANDUP);
    expect(alerts[0]!.text).toContain("3 March");
  });

  it("the webhook delivered to the demo's receiver, and the log says so", async () => {
    const [endpoint, ...more] = (await get("/dashboard/api/webhooks")) as { id: number; url: string }[];
    expect(more).toEqual([]);
    expect(endpoint!.url).toBe(receiver.url);
    const log = (await get(`/dashboard/api/webhooks/${endpoint!.id}/deliveries`)) as { type: string; status: string }[];
    const delivered = new Set(log.filter((d) => d.status === "delivered").map((d) => d.type));
    expect([...delivered].sort()).toEqual(expect.arrayContaining(["kudos.given", "standup.completed"]));
    expect(receiver.received.map((r) => r.type)).toEqual(expect.arrayContaining(["kudos.given", "standup.completed"]));
  });

  it("analytics have weeks of history", async () => {
    const a = (await get("/dashboard/api/analytics?days=30")) as { participation: { daily: unknown[] } };
    expect(a.participation.daily.length).toBeGreaterThanOrEqual(15);
  });

  it("the Blockers page has open blockers with their age, and the overview counts them", async () => {
    const list = (await get("/dashboard/api/blockers")) as { items: { age_days: number; status: string }[] };
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.items.every((b) => b.status === "open")).toBe(true);
    const stats = (await get("/dashboard/api/stats")) as { active_blockers: number };
    expect(stats.active_blockers).toBe(list.items.length);
  });

  it("a second start (seed, live parts, tick) adds nothing: no duplicate standup, history, kudo or webhook", async () => {
    const before = {
      standups: await get("/dashboard/api/standups"),
      kudos: await get("/dashboard/api/kudos"),
      analytics: await get("/dashboard/api/analytics?days=30"),
      rules: await get("/dashboard/api/rules"),
      webhooks: await get("/dashboard/api/webhooks"),
      received: receiver.received.length,
    };
    await start();
    expect(await get("/dashboard/api/standups")).toEqual(before.standups);
    expect(await get("/dashboard/api/kudos")).toEqual(before.kudos);
    expect(await get("/dashboard/api/analytics?days=30")).toEqual(before.analytics);
    expect(await get("/dashboard/api/rules")).toEqual(before.rules);
    expect(await get("/dashboard/api/webhooks")).toEqual(before.webhooks);
    expect(receiver.received.length).toBe(before.received);
    const ruleAlerts = t.fake
      .messages(PRODUCT_CHANNEL.id)
      .filter((m) => JSON.stringify(m.blocks ?? []).includes("Sent by a workflow rule"));
    expect(ruleAlerts).toHaveLength(1);
  });

  it("signs in as the admin by default and as a member with ?as=member", async () => {
    for (const [url, who, role] of [
      ["/demo/sign-in", ADMIN.id, "admin"],
      ["/demo/sign-in?as=member", MEMBER.id, "member"],
    ] as const) {
      const link = await t.inject({ method: "GET", url });
      const login = await t.inject({ method: "GET", url: String(link.headers.location) });
      const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
      const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } });
      expect(me.json()).toMatchObject({ user_id: who, role });
    }
  });
});
