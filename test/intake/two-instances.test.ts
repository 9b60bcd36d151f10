import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventEnvelope } from "../../dev/slack-signing.ts";
import { INTAKE_LEASE_MS } from "../../src/chat/intake/intake.ts";
import { rows } from "../../src/db/client.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import type { TestApp } from "../support/app.ts";
import { onPostgres } from "../support/database.ts";
import { startTwoInstances } from "../support/two-instances.ts";

const TEAM = "T0TWOINTAKE";

const teamJoin = (id: string, eventId: string) => {
  const body = eventEnvelope(
    TEAM,
    {
      type: "team_join",
      user: {
        id,
        team_id: TEAM,
        name: id.toLowerCase(),
        real_name: `Person ${id}`,
        tz: "UTC",
        deleted: false,
        is_bot: false,
        profile: { real_name: `Person ${id}`, display_name: id.toLowerCase(), email: `${id.toLowerCase()}@two.test` },
      },
    },
    { eventId },
  );
  return { kind: "event" as const, body, raw: JSON.stringify(body) };
};

/** Needs a database server that two processes share (the embedded database is one connection). */
describe.runIf(onPostgres)("durable intake across two instances", () => {
  const clock = new ManualClock("2026-03-02T09:00:00Z");
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ a, b, close } = await startTwoInstances({ clock }));
    await a.installTeam(TEAM);
  });
  afterAll(async () => {
    await close?.();
  });
  const members = async (like: string) =>
    (
      await rows<{ n: number }>(
        // B's connection: A is stopped in the second test.
        b.deps.db,
        sql`select count(*)::int as n from members where team_id = ${TEAM} and user_id like ${like}`,
      )
    )[0]!.n;

  it("both instances sweeping at once take each of 60 unfinished deliveries once", async () => {
    for (let i = 0; i < 60; i++) {
      expect(await a.app.intake.record(teamJoin(`U0MANY${i}`, `EvTWOMANY${i}`))).toBe(true);
    }
    clock.advance(INTAKE_LEASE_MS + 1_000);
    const [byA, byB] = await Promise.all([a.app.intake.sweep(), b.app.intake.sweep()]);
    expect(byA + byB).toBe(60);
    expect(await members("U0MANY%")).toBe(60);
    const states = await rows<{ state: string; attempts: number; n: number }>(
      a.deps.db,
      sql`select state, attempts, count(*)::int as n from chat_events where event_id like 'EvTWOMANY%'
          group by state, attempts`,
    );
    expect(states).toEqual([{ state: "done", attempts: 2, n: 60 }]);
  });

  it("a delivery recorded and acknowledged by A, which stops before processing it, is processed by B's sweep", async () => {
    // What A's receive() stores before its 200; A then stops without processing it.
    expect(await a.app.intake.record(teamJoin("U0ORPHAN", "EvTWOORPHAN"))).toBe(true);
    await a.close();
    expect(await members("U0ORPHAN")).toBe(0);
    // B leaves it alone while A's lease runs, and takes it after.
    expect(await b.app.intake.sweep()).toBe(0);
    clock.advance(INTAKE_LEASE_MS + 1_000);
    expect(await b.app.intake.sweep()).toBe(1);
    expect(await members("U0ORPHAN")).toBe(1);
  });
});
