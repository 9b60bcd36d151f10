import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../../../dev/fake-slack/index.ts";
import type { TestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { ManualClock } from "../../lib/clock.ts";
import { dailySyncDue, memberSyncTick, requestMemberSync } from "./member-sync.ts";

/** Needs a database server that two processes share; CI runs the suite once more on PostgreSQL. */
describe.runIf(onPostgres)("the daily member resync with two app instances on one PostgreSQL", () => {
  const teams = ["T0MSA", "T0MSB", "T0MSC"];
  const clock = new ManualClock("2026-03-09T00:00:00Z");
  let fake: FakeSlack;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ a, b, fake, close } = await startTwoInstances({ clock }));
    for (const teamId of teams) {
      await a.installTeam(teamId);
      for (let i = 0; i < 5; i++) {
        fake.addUser(teamId, { id: `U${teamId.slice(1)}P${i}`, name: `p${i}`, real_name: `P ${i}` });
      }
    }
  });
  afterAll(async () => {
    await close?.();
  });

  it("both ticking at once, again and again, at the end of the day: each workspace's resync runs once", async () => {
    clock.set("2026-03-09T23:59:59Z"); // every workspace's time of day has come
    const results = await Promise.all([
      memberSyncTick(a.deps),
      memberSyncTick(b.deps),
      memberSyncTick(a.deps),
      memberSyncTick(b.deps),
    ]);
    expect(results.flatMap((r) => r.queued).sort()).toEqual(teams);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([memberSyncTick(a.deps), memberSyncTick(b.deps)]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    for (const teamId of teams) {
      expect(
        fake.callsTo("users.list").filter((c) => c.teamId === teamId),
        teamId,
      ).toHaveLength(1);
    }
  });

  it("two admins pressing Sync now on two instances at once queue one sync", async () => {
    const outcomes = await Promise.all([requestMemberSync(a.deps, "T0MSA"), requestMemberSync(b.deps, "T0MSA")]);
    expect(outcomes.sort()).toEqual(["already_queued", "queued"]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    expect(fake.callsTo("users.list").filter((c) => c.teamId === "T0MSA")).toHaveLength(2);
    expect(dailySyncDue("T0MSA", clock.now()).day).toBe("2026-03-09");
  });
});
