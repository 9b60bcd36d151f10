import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ADMIN, DEMO_TEAM, DEPARTED, GENERAL_CHANNEL, PLATFORM_CHANNEL, teamOf } from "../demo/people.ts";
import { PLATFORM_STANDUP, PRODUCT_STANDUP, populateFakeSlack, seedDemo } from "../demo/seed.ts";
import { openTodaysRuns } from "../demo/seed-live.ts";
import { AWAY_TODAY } from "../demo/seed-people.ts";
import { type DemoDelivery, MemberSimulator } from "../demo/simulate.ts";
import { sign } from "../dev/slack-signing.ts";
import { rows } from "../src/db/client.ts";
import { tick } from "../src/features/standups/index.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { useTestApp } from "./support/app.ts";

// A Friday evening in London: both standups' 09:30 has long passed, as when a newcomer first tried the demo.
const NOW = "2026-11-27T21:19:00Z";
const TODAY = "2026-11-27";

describe("the demo started late in the day: live runs, answered by the simulated members", async () => {
  const t = await useTestApp({ clock: new ManualClock(NOW) });
  populateFakeSlack(t.fake);
  const start = async () => {
    await seedDemo(t.deps);
    await openTodaysRuns(t.deps);
    await tick(t.deps);
    await t.deps.queue.drain();
  };
  await start();
  const admin = await t.signIn(DEMO_TEAM.id, ADMIN.id);
  const get = async (url: string) => {
    const res = await t.inject({ method: "GET", url, headers: { cookie: admin } });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  const todaysRuns = () =>
    rows<{ id: number; name: string; status: string }>(
      t.deps.db,
      sql`select r.id, s.name, r.status from standup_runs r join schedules s on s.id = r.schedule_id
          where r.team_id = ${DEMO_TEAM.id} and r.local_date = ${TODAY}::date order by s.name`,
    );

  it("opens today's run of both standups whatever the hour, once however many starts", async () => {
    const runs = await todaysRuns();
    expect(runs.map((r) => [r.name, r.status])).toEqual([
      [PLATFORM_STANDUP, "open"],
      [PRODUCT_STANDUP, "open"],
    ]);
    await start();
    expect(await todaysRuns()).toEqual(runs);
  });

  it("the simulated members answer the platform standup's run (everyone asked at once) and the product one", async () => {
    /** Signed requests into the service, each followed by the jobs it queued (the next question, the thread). */
    const delivery: DemoDelivery = {
      interaction: async (payload) => {
        const res = await t.sendInteraction(payload);
        expect(res.statusCode, res.body).toBe(200);
        await t.deps.queue.drain();
      },
      event: async (envelope) => {
        const body = JSON.stringify(envelope);
        const s = sign(body, { nowMs: t.clock.now().getTime() });
        const res = await t.inject({ method: "POST", url: "/chat/events", headers: s.headers, payload: s.payload });
        expect(res.statusCode, res.body).toBe(200);
        await t.deps.queue.drain();
      },
    };
    const sim = new MemberSimulator(t.fake, delivery, { delayMs: () => 0, neverAnswer: 0, typingMs: 0 });
    sim.scan();
    await sim.settled();
    await t.deps.queue.drain();
    const answered = await rows<{ name: string; user_id: string }>(
      t.deps.db,
      sql`select s.name, p.user_id from responses p join schedules s on s.id = p.schedule_id
          where p.team_id = ${DEMO_TEAM.id} and p.standup_date = ${TODAY}::date`,
    );
    const who = (name: string) =>
      answered
        .filter((a) => a.name === name)
        .map((a) => a.user_id)
        .sort();
    const expected = (team: "product" | "platform") =>
      teamOf(team)
        .filter((p) => !p.admin && p.id !== AWAY_TODAY.id)
        .map((p) => p.id)
        .sort();
    expect(who(PLATFORM_STANDUP)).toEqual(expected("platform"));
    expect(who(PRODUCT_STANDUP)).toEqual(expected("product"));
    expect(t.fake.messages(PLATFORM_CHANNEL.id).length).toBeGreaterThan(0);
  });

  it("has a Celebrations channel (#general) with birthdays and anniversaries on", async () => {
    expect(await get("/dashboard/api/celebrations/settings")).toMatchObject({
      channel_id: GENERAL_CHANNEL.id,
      birthdays: true,
      anniversaries: true,
    });
  });

  it("has one person deactivated in Slack, inactive in Upbeat: whom 'Add a member' offers", async () => {
    const people = (await get("/dashboard/api/people")) as { user_id: string; active: boolean }[];
    expect(people.filter((p) => !p.active).map((p) => p.user_id)).toEqual([DEPARTED.id]);
    const info = (await (
      await fetch(`${t.fake.url}users.info?user=${DEPARTED.id}&token=xoxb-demo-northwind-bot-token`)
    ).json()) as {
      user: { deleted: boolean };
    };
    expect(info.user.deleted).toBe(true);
  });
});
