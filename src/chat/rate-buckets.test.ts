import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, onPostgres } from "../../test/support/database.ts";
import { startTwoInstances, type TwoInstances } from "../../test/support/two-instances.ts";
import { type Database, type Executor, rows } from "../db/client.ts";
import { ManualClock } from "../lib/clock.ts";
import { RetryLaterError } from "../lib/retry-later.ts";
import {
  type BucketRule,
  honourRetryAfter,
  pace,
  pauseBucket,
  SLACK_BUCKETS,
  type Take,
  takeSlot,
  takeSlots,
} from "./rate-buckets.ts";

/** The bucket's theoretical arrival time, in ms after `since` (epoch ms), on the database's clock. */
async function tatAfter(db: Executor, teamId: string, bucket: string, since: number): Promise<number> {
  const [row] = await rows<{ ms: number | string }>(
    db,
    sql`select (extract(epoch from tat) * 1000)::float8 - ${since}::float8 as ms
        from chat_rate_buckets where team_id = ${teamId} and bucket = ${bucket}`,
  );
  return Number(row!.ms);
}

/** When each take's slot is, on the database's clock, in order. */
const slotsOf = (takes: Take[]) => takes.map((t) => t.atMs + t.waitMs).sort((a, b) => a - b);

/** GCRA's promise: in any span of slots, at most burst + span / interval of them (1 ms for float rounding). */
function expectPaced(slots: number[], rule: BucketRule): void {
  for (let i = 0; i < slots.length; i++) {
    for (let j = i + 1; j < slots.length; j++) {
      expect(j - i + 1).toBeLessThanOrEqual(rule.burst + Math.floor((slots[j]! - slots[i]! + 1) / rule.intervalMs));
    }
  }
}

async function dbNowMs(db: Executor): Promise<number> {
  const [row] = await rows<{ ms: number | string }>(db, sql`select (extract(epoch from now()) * 1000)::float8 as ms`);
  return Number(row!.ms);
}

/**
 * Many takes at once never let more through than the burst plus the sustained rate: every grant is counted in one
 * atomic statement, so no two takes read the same state.
 */
async function burstOfTakes(dbs: Executor[], teamId: string, n: number, rule: BucketRule) {
  const started = performance.now();
  const takes = await Promise.all(
    Array.from({ length: n }, (_, i) => takeSlot(dbs[i % dbs.length]!, teamId, "test.method", rule, 0)),
  );
  const elapsedMs = performance.now() - started;
  return { granted: takes.filter((t) => t.granted).length, elapsedMs, takes };
}

describe("the per-workspace token bucket", () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase({ poolMax: 10 });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("lets at most the burst plus the rate through when 60 takes come at once", async () => {
    const rule = { intervalMs: 1_000, burst: 5 };
    const { granted, elapsedMs, takes } = await burstOfTakes([database.db], "T0RB1", 60, rule);
    expect(granted).toBeGreaterThanOrEqual(rule.burst);
    expect(granted).toBeLessThanOrEqual(rule.burst + Math.ceil(elapsedMs / rule.intervalMs));
    // Those refused are told when a slot frees up: within about one interval.
    for (const t of takes.filter((x) => !x.granted)) {
      expect(t.waitMs).toBeGreaterThan(0);
      expect(t.waitMs).toBeLessThanOrEqual(rule.intervalMs);
    }
  });

  it("gives every take its own slot when waiting is allowed: n takes book n intervals, none lost to a race", async () => {
    const rule = { intervalMs: 100, burst: 3 };
    const since = await dbNowMs(database.db);
    const started = performance.now();
    const takes = await Promise.all(
      Array.from({ length: 30 }, () => takeSlot(database.db, "T0RB2", "test.method", rule, 60_000)),
    );
    const elapsedMs = performance.now() - started;
    expect(takes.every((t) => t.granted)).toBe(true);
    // Each grant moved the bucket on by one interval from where the previous grant left it.
    expect(await tatAfter(database.db, "T0RB2", "test.method", since)).toBeGreaterThanOrEqual(30 * rule.intervalMs);
    // The burst goes at once; after it, the slots (on the database's clock, however slowly the statements ran) never
    // let more than burst + span / interval through in any span.
    expect(takes.filter((t) => t.waitMs === 0).length).toBeGreaterThanOrEqual(1);
    expectPaced(slotsOf(takes), rule);
    expect(Math.max(...takes.map((t) => t.waitMs))).toBeGreaterThanOrEqual(
      (30 - rule.burst) * rule.intervalMs - elapsedMs - 50,
    );
  });

  it("a 429 pauses the bucket until its Retry-After: takes wait that long, and pace defers a job past the inline limit", async () => {
    const rule = { intervalMs: 100, burst: 10 };
    await pauseBucket(database.db, "T0RB3", "test.method", rule, 2);
    const refused = await takeSlot(database.db, "T0RB3", "test.method", rule, 0);
    expect(refused.granted).toBe(false);
    expect(refused.waitMs).toBeGreaterThan(1_500);
    expect(refused.waitMs).toBeLessThanOrEqual(2_000);
    const waiting = await takeSlot(database.db, "T0RB3", "test.method", rule, 5_000);
    expect(waiting).toMatchObject({ granted: true });
    expect(waiting.waitMs).toBeGreaterThan(1_500);
    // A longer pause than a worker sleeps (10 s): the job is deferred that long instead.
    await pauseBucket(database.db, "T0RB3", "chat.postMessage", rule, 45);
    const deferred = await pace(database.db, "T0RB3", "chat.postMessage").catch((e: unknown) => e);
    expect(deferred).toBeInstanceOf(RetryLaterError);
    expect((deferred as RetryLaterError).delayMs).toBeGreaterThan(44_000);
    // A second 429 with a shorter Retry-After never shortens the pause.
    await pauseBucket(database.db, "T0RB3", "chat.postMessage", rule, 1);
    const still = await takeSlot(database.db, "T0RB3", "chat.postMessage", rule, 0);
    expect(still.waitMs).toBeGreaterThan(44_000);
  });

  it("a pause ends with an empty bucket: the takes that waited it out go at the sustained rate, not as one burst", async () => {
    const rule = { intervalMs: 100, burst: 10 };
    // A full bucket first (it has been idle), then Slack's 429.
    await takeSlot(database.db, "T0RB8", "test.method", rule, 0);
    await pauseBucket(database.db, "T0RB8", "test.method", rule, 1);
    const takes = await Promise.all(
      Array.from({ length: 5 }, () => takeSlot(database.db, "T0RB8", "test.method", rule, 5_000)),
    );
    expect(takes.every((t) => t.granted)).toBe(true);
    expect(Math.min(...takes.map((t) => t.waitMs))).toBeGreaterThan(800);
    // One interval apart from the end of the pause (a burst of one): without it, all five would go the moment it ends.
    const slots = slotsOf(takes);
    expectPaced(slots, { ...rule, burst: 1 });
    expect(slots.at(-1)! - slots[0]!).toBeGreaterThanOrEqual(4 * rule.intervalMs - 1);
  });

  it("a 429 to conversations.open pauses the workspace; one to chat.postMessage holds only that post", async () => {
    const paused = async (teamId: string, bucket: string) =>
      (
        await rows<{ s: number | null }>(
          database.db,
          sql`select extract(epoch from paused_until - now())::float8 as s
              from chat_rate_buckets where team_id = ${teamId} and bucket = ${bucket}`,
        )
      )[0]?.s ?? null;
    // Tier 3, limited per workspace: every worker of every instance waits the Retry-After out (the next pace).
    const opened = performance.now();
    // Not waited here (the next pace waits, and counts it).
    expect(await honourRetryAfter(database.db, "T0RB6", "conversations.open", 1, 0)).toBe(0);
    expect(performance.now() - opened).toBeLessThan(500);
    expect(await paused("T0RB6", "conversations.open")).toBeGreaterThan(0.5);
    const paced = performance.now();
    await pace(database.db, "T0RB6", "conversations.open");
    expect(performance.now() - paced).toBeGreaterThan(500);

    // chat.postMessage, limited per channel: the post that got the 429 waits here; the workspace's others go on.
    const posted = performance.now();
    expect(await honourRetryAfter(database.db, "T0RB7", "chat.postMessage", 1, 0)).toBe(1_000);
    expect(performance.now() - posted).toBeGreaterThanOrEqual(990);
    expect(await paused("T0RB7", "chat.postMessage")).toBeNull();
    const other = performance.now();
    await pace(database.db, "T0RB7", "chat.postMessage");
    expect(performance.now() - other).toBeLessThan(500);
    // Past the in-process limits the job is deferred that long instead, counted from every wait so far.
    const late = await honourRetryAfter(database.db, "T0RB7", "chat.postMessage", 1, 29_500).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(RetryLaterError);
    expect((late as RetryLaterError).delayMs).toBe(1_000);
  });

  it("takes a batch's slots in one statement as that many single takes would: the burst, then one an interval", async () => {
    const rule = SLACK_BUCKETS["chat.postMessage"];
    // A fresh bucket: the whole batch goes at once.
    const first = await takeSlots(database.db, "T0RB8", "chat.postMessage", 25);
    expect(first.granted).toBe(25);
    expect(Array.from({ length: 25 }, (_, i) => first.waitMs(i))).toEqual(Array(25).fill(0));
    // The rest of the burst goes at once, then one slot per interval up to the inline limit asked for (1 s).
    const second = await takeSlots(database.db, "T0RB8", "chat.postMessage", 200, 1_000);
    const rest = rule.burst - 25;
    expect(second.granted).toBeGreaterThanOrEqual(rest + 9);
    expect(second.granted).toBeLessThanOrEqual(rest + 11);
    for (let i = 0; i < rest - 1; i++) expect(second.waitMs(i)).toBe(0);
    for (let i = rest + 1; i < second.granted; i++) {
      expect(second.waitMs(i) - second.waitMs(i - 1)).toBeCloseTo(rule.intervalMs, 3);
    }
    expect(second.waitMs(second.granted - 1)).toBeLessThanOrEqual(1_000);
    // A single take after the batch queues behind its last slot.
    const single = await takeSlot(database.db, "T0RB8", "chat.postMessage", rule, 0);
    expect(single.granted).toBe(false);
    expect(single.waitMs).toBeGreaterThan(second.waitMs(second.granted - 1) - 50);
  });

  it("a paused bucket grants a batch nothing within a shorter wait, and every slot after the pause within a longer one", async () => {
    await pauseBucket(database.db, "T0RB9", "chat.postMessage", SLACK_BUCKETS["chat.postMessage"], 5);
    expect((await takeSlots(database.db, "T0RB9", "chat.postMessage", 3, 1_000)).granted).toBe(0);
    const later = await takeSlots(database.db, "T0RB9", "chat.postMessage", 3, 10_000);
    expect(later.granted).toBe(3);
    for (let i = 0; i < 3; i++) expect(later.waitMs(i)).toBeGreaterThan(4_500);
  });

  it("keeps workspaces apart", async () => {
    const rule = { intervalMs: 60_000, burst: 1 };
    expect((await takeSlot(database.db, "T0RB4", "test.method", rule, 0)).granted).toBe(true);
    expect((await takeSlot(database.db, "T0RB4", "test.method", rule, 0)).granted).toBe(false);
    expect((await takeSlot(database.db, "T0RB5", "test.method", rule, 0)).granted).toBe(true);
  });
});

/** Two instances (two connection pools) on one PostgreSQL share one bucket per workspace. */
describe.runIf(onPostgres)("the token bucket shared by two instances", () => {
  let two: TwoInstances;
  beforeAll(async () => {
    two = await startTwoInstances({ clock: new ManualClock("2026-03-02T08:00:00Z") });
  });
  afterAll(async () => {
    await two?.close();
  });

  it("lets at most the burst plus the rate through, whichever instance takes", async () => {
    const rule = { intervalMs: 1_000, burst: 4 };
    const { granted, elapsedMs } = await burstOfTakes([two.a.deps.db, two.b.deps.db], "T0RBTWO", 80, rule);
    expect(granted).toBeGreaterThanOrEqual(rule.burst);
    expect(granted).toBeLessThanOrEqual(rule.burst + Math.ceil(elapsedMs / rule.intervalMs));
  });

  it("books every slot once across both instances", async () => {
    const rule = { intervalMs: 50, burst: 2 };
    const since = await dbNowMs(two.a.deps.db);
    const dbs = [two.a.deps.db, two.b.deps.db];
    const takes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => takeSlot(dbs[i % 2]!, "T0RBTWO2", "test.method", rule, 60_000)),
    );
    expect(takes.every((t) => t.granted)).toBe(true);
    expect(await tatAfter(two.a.deps.db, "T0RBTWO2", "test.method", since)).toBeGreaterThanOrEqual(
      40 * rule.intervalMs,
    );
  });
});
