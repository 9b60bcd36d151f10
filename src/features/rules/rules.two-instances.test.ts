import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../../../dev/fake-slack/index.ts";
import type { TestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "../standups/index.ts";

/** Needs a database server that two processes share; CI runs the suite once more on PostgreSQL. */
describe.runIf(onPostgres)("workflow rules on two app instances sharing one PostgreSQL", () => {
  const team = "T0RULTWO";
  const people = ["U0R2A", "U0R2B", "U0R2C", "U0R2D"];
  const clock = new ManualClock("2026-03-02T08:59:00Z");
  let fake: FakeSlack;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  let runId = 0;

  beforeAll(async () => {
    ({ a, b, fake, close } = await startTwoInstances({ clock }));
    await a.installTeam(team, { installer: "U0R2ADMIN" });
    for (const u of people) {
      fake.addUser(team, { id: u, name: u.toLowerCase(), real_name: u });
      await a.addMember(team, u);
    }
    fake.addChannel(team, { id: "C0R2STAND", name: "two-standup", members: [...people, "B0RULTWOBOT"] });
    fake.addChannel(team, { id: "C0R2ALERT", name: "two-alerts", members: ["B0RULTWOBOT"] });
    await createSchedule(a.deps.db, clock, { teamId: team, channelId: "C0R2STAND", time: "09:00" });
    const cookie = await a.signIn(team, "U0R2ADMIN");
    for (const body of [
      { trigger: "blocker_reported" },
      { trigger: "participation_below", trigger_threshold: 75 },
      { trigger: "mood_below", trigger_threshold: 4 },
      { trigger: "blocker_open_days", trigger_threshold: 1 },
    ]) {
      const res = await a.inject({
        method: "POST",
        url: "/dashboard/api/rules",
        headers: { cookie, "content-type": "application/json" },
        payload: JSON.stringify({ ...body, action: "post_to_channel", action_target: "C0R2ALERT" }),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    clock.set("2026-03-02T09:00:05Z");
    const started = await Promise.all([tick(a.deps), tick(b.deps)]);
    runId = started.flatMap((r) => r.started)[0]!;
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
  });
  afterAll(async () => {
    await close?.();
  });

  const alerts = (prefix: string) => fake.messages("C0R2ALERT").filter((m) => m.text.startsWith(prefix));

  it("a blocker answered on one instance is posted once while both instances run jobs", async () => {
    const res = await submitStandup(b, team, "U0R2A", runId, ["Done", "Next", "Waiting on legal"], "😐");
    expect(res.body).toBe("");
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    expect(alerts("Blocker from")).toHaveLength(1);
  });

  it("both instances ticking at the close post participation and mood once each", async () => {
    await submitStandup(a, team, "U0R2B", runId, ["Done", "Next", "none"], "🙂");
    clock.set("2026-03-03T00:00:10Z");
    const closed = await Promise.all([tick(a.deps), tick(b.deps), tick(a.deps), tick(b.deps)]);
    expect(closed.reduce((n, r) => n + r.closed, 0)).toBe(1);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    expect(alerts("Participation").map((m) => m.text)).toEqual([
      "Participation 50 % (2 of 4) is below 75 %: #two-standup standup, Monday 2 March 2026",
    ]);
    // 😐 3 and 🙂 4.
    expect(alerts("Mood").map((m) => m.text)).toEqual([
      "Mood 3.5 (average of 2 answers) is below 4: #two-standup standup, Monday 2 March 2026",
    ]);
    const firings = await rows<{ n: number }>(
      a.deps.db,
      sql`select count(*)::int as n from rule_firings where team_id = ${team}`,
    );
    expect(Number(firings[0]!.n)).toBe(3);
  });

  it("a blocker still open a day later escalates once when both instances close the next run", async () => {
    clock.set("2026-03-03T09:00:05Z");
    const started = await Promise.all([tick(a.deps), tick(b.deps)]);
    expect(started.flatMap((r) => r.started)).toHaveLength(1);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    clock.set("2026-03-04T00:00:10Z");
    const closed = await Promise.all([tick(a.deps), tick(b.deps), tick(a.deps), tick(b.deps)]);
    expect(closed.reduce((n, r) => n + r.closed, 0)).toBe(1);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
    expect(alerts("Blocker from Person U0R2A open").map((m) => m.text)).toEqual([
      "Blocker from Person U0R2A open for 1 day in #two-standup standup: Waiting on legal",
    ]);
    const firings = await rows<{ n: number }>(
      a.deps.db,
      sql`select count(*)::int as n from rule_firings where team_id = ${team} and blocker_id is not null`,
    );
    expect(Number(firings[0]!.n)).toBe(1);
  });
});
