import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../../../dev/fake-slack/index.ts";
import type { TestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

/** Needs a database server that two processes share; CI runs the suite once more on PostgreSQL. */
describe.runIf(onPostgres)("two app instances on one PostgreSQL", () => {
  const people = Array.from({ length: 40 }, (_, i) => `U0P${String(i).padStart(3, "0")}`);
  const clock = new ManualClock("2026-03-02T08:00:00Z");
  let fake: FakeSlack;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  // Set up in a hook: a skipped describe still runs its body to collect the tests.
  beforeAll(async () => {
    ({ a, b, fake, close } = await startTwoInstances({ clock }));
    await a.installTeam("T0TWO");
    for (const u of people) {
      fake.addUser("T0TWO", { id: u, name: u.toLowerCase(), real_name: u });
      await a.addMember("T0TWO", u);
    }
    fake.addChannel("T0TWO", { id: "C0TWO", name: "two", members: [...people, "BT0TWOBOT"] });
    await createSchedule(a.deps.db, clock, { teamId: "T0TWO", channelId: "C0TWO", time: "09:00", tz: "UTC" });
  });
  afterAll(async () => {
    await close?.();
  });

  it("ticking together produce one run and one DM per participant", async () => {
    clock.set("2026-03-02T09:00:03Z");
    const results = await Promise.all([tick(a.deps), tick(b.deps), tick(a.deps), tick(b.deps)]);
    expect(results.flatMap((r) => r.started)).toHaveLength(1);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    const runs = await rows(a.deps.db, sql`select id from standup_runs where team_id = 'T0TWO'`);
    expect(runs).toHaveLength(1);
    expect(fake.messages("C0TWO").filter((m) => !m.thread_ts)).toHaveLength(1);
    for (const u of people) {
      const dms = fake.messages(fake.dmFor("T0TWO", u)).filter((m) => m.text.startsWith("Time for standup"));
      expect(dms, u).toHaveLength(1);
    }
    expect(fake.callsTo("chat.postMessage").filter((c) => c.ok)).toHaveLength(people.length + 1);
  });

  it("both instances close the run once", async () => {
    clock.set("2026-03-03T00:00:10Z");
    const results = await Promise.all([tick(a.deps), tick(b.deps)]);
    expect(results.reduce((n, r) => n + r.closed, 0)).toBe(1);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    expect(fake.messages("C0TWO").filter((m) => m.text.startsWith("Standup closed"))).toHaveLength(1);
  });
});
