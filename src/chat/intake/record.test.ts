import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, onPostgres, secondConnection } from "../../../test/support/database.ts";
import type { Database } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { Metrics } from "../../lib/metrics.ts";
import { BATCH_MAX as CLAIM_BATCH_MAX } from "./batcher.ts";
import { Intake } from "./intake.ts";

/** The intake's recording step alone (nothing is dispatched): `claim` records an event delivery. */
class EventClaims {
  readonly #intake: Intake;
  constructor(database: Pick<Database, "query">, clock: ManualClock) {
    const deps = { database, clock, log: pino({ level: "silent" }), metrics: new Metrics() };
    this.#intake = new Intake(deps, async () => {});
  }
  claim(eventId: string, teamId: string | undefined): Promise<boolean> {
    const body = { type: "event_callback", event_id: eventId, event: { type: "reaction_added" }, team_id: teamId };
    return this.#intake.record({ kind: "event", body, raw: "" });
  }
}

/** The real database, counting the statements the claims run and the ids each carried. */
function counting(database: Database) {
  const statements: number[] = [];
  return {
    statements,
    query: async <T>(text: string, params: unknown[], name?: string) => {
      statements.push((params[0] as string[]).length);
      return database.query<T>(text, params, name);
    },
  };
}

describe("deliveries recorded under their event id, batched", () => {
  const clock = new ManualClock("2026-04-01T09:00:00Z");
  let database: Database;
  let other: Database;
  beforeAll(async () => {
    database = await freshDatabase();
    other = onPostgres ? await secondConnection(database) : database;
  });
  afterAll(async () => {
    if (other !== database) await other?.close();
    await database?.close();
  });
  const wins = (results: boolean[], ids: string[]) => {
    const byId = new Map<string, number>();
    results.forEach((won, i) => {
      if (won) byId.set(ids[i]!, (byId.get(ids[i]!) ?? 0) + 1);
    });
    return byId;
  };

  it("300 deliveries at once, 100 event ids three times each: each id is claimed once, in one statement", async () => {
    const db = counting(database);
    const claims = new EventClaims(db, clock);
    const ids = Array.from({ length: 300 }, (_, i) => `EvBATCH${i % 100}`);
    const results = await Promise.all(ids.map((id) => claims.claim(id, "T0CLAIM")));
    const won = wins(results, ids);
    expect(won.size).toBe(100);
    expect([...won.values()].every((n) => n === 1)).toBe(true);
    // The same id twice in one batch: the first delivery wins, and the statement carries it once.
    expect(results.slice(0, 100).every(Boolean)).toBe(true);
    expect(db.statements).toEqual([100]);
    const [row] = await database.query<{ n: number; team: string; at: Date }>(
      `select count(*)::int as n, min(team_id) as team, min(received_at) as at, min(state) as state, min(kind) as kind,
              min(type) as type, min(attempts) as attempts
         from chat_events where event_id like 'EvBATCH%'`,
      [],
    );
    // Pending, its first attempt under way here; the type is kept for the admin list.
    expect(row).toMatchObject({
      n: 100,
      team: "T0CLAIM",
      state: "pending",
      kind: "event",
      type: "reaction_added",
      attempts: 1,
    });
    expect(new Date(row!.at).toISOString()).toBe("2026-04-01T09:00:00.000Z");
  });

  it("a retry later, or the same delivery on another instance at once, is not claimed again", async () => {
    const a = new EventClaims(database, clock);
    const b = new EventClaims(other, clock);
    expect(await a.claim("EvBATCH7", "T0CLAIM")).toBe(false);
    const ids = Array.from({ length: 200 }, (_, i) => `EvTWO${i % 50}`);
    const results = await Promise.all(ids.map((id, i) => (i % 2 ? a : b).claim(id, "T0CLAIM")));
    const won = wins(results, ids);
    expect(won.size).toBe(50);
    expect([...won.values()].every((n) => n === 1)).toBe(true);
  });

  it(`past ${CLAIM_BATCH_MAX} waiting, they go in statements of at most ${CLAIM_BATCH_MAX}`, async () => {
    const db = counting(database);
    const claims = new EventClaims(db, clock);
    const ids = Array.from({ length: 1_200 }, (_, i) => `EvMANY${i}`);
    const results = await Promise.all(ids.map((id) => claims.claim(id, undefined)));
    expect(results.every(Boolean)).toBe(true);
    expect(db.statements.reduce((a, b) => a + b, 0)).toBe(1_200);
    expect(Math.max(...db.statements)).toBeLessThanOrEqual(CLAIM_BATCH_MAX);
    expect(db.statements.length).toBe(3);
  });

  it("a statement that fails fails its own batch only; the next one claims", async () => {
    const claims = new EventClaims(database, clock);
    await database.query("alter table chat_events rename to chat_events_away", []);
    try {
      const failed = await Promise.allSettled([claims.claim("EvFAIL1", "T0CLAIM"), claims.claim("EvFAIL2", "T0CLAIM")]);
      expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    } finally {
      await database.query("alter table chat_events_away rename to chat_events", []);
    }
    expect(await claims.claim("EvFAIL1", "T0CLAIM")).toBe(true);
    expect(await claims.claim("EvFAIL1", "T0CLAIM")).toBe(false);
  });
});
