import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { maintenanceTick } from "./maintenance.ts";

/** Needs a database server that two processes share; CI runs the suite once more on PostgreSQL. */
describe.runIf(onPostgres)("the daily maintenance with two app instances on one PostgreSQL", () => {
  const clock = new ManualClock("2026-05-04T00:00:00Z");
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ a, b, close } = await startTwoInstances({ clock }));
  });
  afterAll(async () => {
    await close?.();
  });

  it("both ticking at once, again and again, run it once a day", async () => {
    for (const day of ["2026-05-04", "2026-05-05"]) {
      clock.set(`${day}T03:00:01Z`);
      await a.deps.db.execute(sql`insert into chat_events (event_id, team_id, received_at)
        values (${`Ev${day}`}, 'T0MAINT', ${new Date(clock.now().getTime() - 8 * 86_400_000).toISOString()})`);
      const claims = await Promise.all([a, b, a, b, a, b].map((t) => maintenanceTick(t.deps)));
      expect(claims.filter(Boolean), day).toHaveLength(1);
      const ran = await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
      expect(ran[0] + ran[1], day).toBe(1);
      clock.set(`${day}T23:59:59Z`);
      expect(await Promise.all([maintenanceTick(a.deps), maintenanceTick(b.deps)])).toEqual([false, false]);
    }
    const runs = await rows<{ day: string; outcome: string; events: number }>(
      a.deps.db,
      sql`select day::text as day, outcome, (pruned->>'chat_events')::int as events from maintenance_runs order by day`,
    );
    expect(runs).toEqual([
      { day: "2026-05-04", outcome: "ok", events: 1 },
      { day: "2026-05-05", outcome: "ok", events: 1 },
    ]);
  });
});
