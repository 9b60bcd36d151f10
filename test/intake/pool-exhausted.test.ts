import { sql } from "drizzle-orm";
import type { PoolClient } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventEnvelope, sign } from "../../dev/slack-signing.ts";
import { INTAKE_BACKOFF_BASE_MS } from "../../src/chat/intake/intake.ts";
import { rows } from "../../src/db/client.ts";
import { upsertPeople } from "../../src/features/members/index.ts";
import { tick } from "../../src/features/standups/index.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { freshDatabase, onPostgres } from "../support/database.ts";
import { createSchedule } from "../support/factories.ts";

const TEAM = "T0POOL";
const CHANNEL = "C0POOL";
const PEOPLE = Array.from({ length: 500 }, (_, i) => `U0P${String(i).padStart(4, "0")}`);
const HOLD_MS = 10_000;
/** The pool of a production instance (openDatabase's default). */
const POOL_MAX = 20;

/**
 * The fault probe of issue 22: every connection of the app's pool held for 10 s at the moment 500 DM answers arrive.
 * PostgreSQL only: the embedded database has no pool (one connection, whose queries wait in turn and never time out).
 */
describe.runIf(onPostgres)("the database pool exhausted while 500 DM answers arrive", () => {
  let t: TestApp;
  let runId: number;
  beforeAll(async () => {
    t = await createTestApp({ database: await freshDatabase({ poolMax: POOL_MAX }) });
    t.clock.set("2026-03-02T08:59:30Z");
    await t.installTeam(TEAM);
    await upsertPeople(
      t.deps.db,
      TEAM,
      PEOPLE.map((userId) => ({
        userId,
        realName: userId,
        displayName: userId.toLowerCase(),
        email: `${userId.toLowerCase()}@pool.test`,
        tz: "UTC",
        active: true,
        slackAdmin: false,
      })),
      t.clock.now(),
    );
    t.fake.addChannel(TEAM, { id: CHANNEL, name: "pool", members: [...PEOPLE, "BT0POOLBOT"] });
    await createSchedule(t.deps.db, t.clock, {
      teamId: TEAM,
      channelId: CHANNEL,
      time: "09:00",
      questions: ["What will you do today?"],
    });
    t.clock.set("2026-03-02T09:00:10Z");
    runId = (await tick(t.deps)).started[0]!;
    // The 500 as the fan-out leaves them, asked (without sending 500 DMs at Slack's conversations.open pace).
    await t.deps.database.query(
      `insert into run_participants (run_id, user_id, team_id, status, created_at)
         select $1, u, $2, 'asked', $3 from unnest($4::text[]) as u`,
      [runId, TEAM, t.clock.now().toISOString(), PEOPLE],
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Slack's side: a delivery answered anything but 200 is sent again, with x-slack-retry-num. */
  const deliver = async (userId: string, i: number): Promise<number> => {
    const body = JSON.stringify(
      eventEnvelope(
        TEAM,
        {
          type: "message",
          channel_type: "im",
          channel: t.fake.dmFor(TEAM, userId),
          user: userId,
          text: `Plan of ${userId}`,
          ts: `1772442010.${String(i).padStart(6, "0")}`,
        },
        { eventId: `EvPOOL${i}` },
      ),
    );
    for (let attempt = 0; ; attempt++) {
      const s = sign(body, { nowMs: t.clock.now().getTime(), ...(attempt ? { retryNum: attempt } : {}) });
      const res = await t.inject({ method: "POST", url: "/chat/events", headers: s.headers, payload: s.payload });
      if (res.statusCode === 200) return attempt;
      expect(res.statusCode).toBe(503);
      if (attempt > 30) throw new Error(`${userId}: still ${res.statusCode} after ${attempt} retries`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  };

  it("all 500 answers are stored, none twice; what was answered 200 is never lost", { timeout: 120_000 }, async () => {
    const pool = t.database.pool!;
    const held: PoolClient[] = await Promise.all(Array.from({ length: POOL_MAX }, () => pool.connect()));
    const releaseAll = () => {
      for (const c of held.splice(0)) c.release();
    };
    const release = setTimeout(releaseAll, HOLD_MS);
    let retries: number[];
    try {
      retries = await Promise.all(PEOPLE.map((userId, i) => deliver(userId, i)));
    } finally {
      clearTimeout(release);
      releaseAll();
    }
    // Refused while the pool was held (so Slack retried them), none acknowledged without being stored.
    expect(retries.filter((n) => n > 0).length).toBeGreaterThan(0);
    await t.app.settle();
    // Whatever failed after its 200 (the pool still busy with the backlog) is taken again by the sweep.
    for (let n = 1; n <= 4; n++) {
      t.clock.advance(INTAKE_BACKOFF_BASE_MS * 4 ** (n - 1) + 1_000);
      await t.app.intake.sweep();
    }
    const stored = await rows<{ user_id: string; answers: string[] }>(
      t.deps.db,
      sql`select user_id, answers from responses where run_id = ${runId}`,
    );
    expect(stored).toHaveLength(500);
    expect(new Set(stored.map((r) => r.user_id)).size).toBe(500);
    for (const r of stored) expect(r.answers).toEqual([`Plan of ${r.user_id}`]);
    const states = await rows<{ state: string; n: number }>(
      t.deps.db,
      sql`select state, count(*)::int as n from chat_events where event_id like 'EvPOOL%' group by state`,
    );
    expect(states).toEqual([{ state: "done", n: 500 }]);
  });
});
