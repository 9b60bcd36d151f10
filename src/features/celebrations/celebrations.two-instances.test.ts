import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../../../dev/fake-slack/index.ts";
import type { TestApp } from "../../../test/support/app.ts";
import { setProfile, setUpCelebrations } from "../../../test/support/celebrations.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { ManualClock } from "../../lib/clock.ts";
import { celebrationsTick } from "./celebrations.scheduler.ts";

/** Needs a database server that two processes share; CI runs the suite once more on PostgreSQL. */
describe.runIf(onPostgres)("the daily Celebrations post with two app instances on one PostgreSQL", () => {
  const teams = ["T0CTWOA", "T0CTWOB", "T0CTWOC"];
  const clock = new ManualClock("2026-06-03T06:00:00Z");
  const channels = new Map<string, string>();
  let fake: FakeSlack;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ a, b, fake, close } = await startTwoInstances({ clock }));
    for (const teamId of teams) {
      const { channel } = await setUpCelebrations(a, teamId, { timezone: "Europe/Paris" });
      channels.set(teamId, channel);
      for (let i = 0; i < 5; i++) {
        const u = `U${teamId.slice(1)}P${i}`;
        await a.addMember(teamId, u);
        await setProfile(a.deps.db, teamId, u, { birthday: "06-03", startDate: `${2020 - i}-06-03` });
      }
    }
  });
  afterAll(async () => {
    await close?.();
  });

  it("both ticking at once, again and again, post one message per workspace and kind, with one reaction each", async () => {
    clock.set("2026-06-03T07:00:00Z"); // 09:00 in Paris, a Wednesday
    const results = await Promise.all([
      celebrationsTick(a.deps),
      celebrationsTick(b.deps),
      celebrationsTick(a.deps),
      celebrationsTick(b.deps),
    ]);
    const claimed = results.flatMap((r) => r.claimed);
    expect(claimed).toHaveLength(teams.length * 2);
    clock.set("2026-06-03T07:01:00Z");
    await Promise.all([celebrationsTick(a.deps), celebrationsTick(b.deps)]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    for (const teamId of teams) {
      const posts = fake.messages(channels.get(teamId));
      expect(posts, teamId).toHaveLength(2);
      expect(posts.filter((p) => p.text.includes("birthday"))).toHaveLength(1);
      expect(posts.filter((p) => p.text.includes("anniversary"))).toHaveLength(1);
      for (const p of posts) expect(p.reactions.map((r) => r.name)).toEqual(["tada"]);
    }
    expect(fake.callsTo("chat.postMessage")).toHaveLength(teams.length * 2);
    expect(fake.callsTo("reactions.add")).toHaveLength(teams.length * 2);
  });
});
