import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/support/database.ts";
import { CLAIM_STALE_SECONDS } from "../chat/post-once.ts";
import { type Database, rows } from "../db/client.ts";
import { RetryLaterError } from "../lib/retry-later.ts";
import {
  DEFAULT_QUEUE_SETTINGS,
  JOB_DELETE_AFTER_SECONDS,
  JOB_EXPIRY_SECONDS,
  JOB_RETENTION_SECONDS,
  JobQueue,
  type QueueSettings,
  type RegisterOptions,
} from "./queue.ts";

declare module "./queue.ts" {
  interface JobPayloads {
    "test.recovery": { n: number };
  }
}

const silent = pino({ level: "silent" });
let database: Database;
const started: JobQueue[] = [];

/** A queue on the file's database with these settings (each start applies them to the queue in pg-boss). */
async function queueWith(
  settings: Partial<QueueSettings>,
  handler: (n: number) => Promise<void>,
  opts: RegisterOptions = {},
): Promise<JobQueue> {
  const queue = new JobQueue(database, silent, settings);
  queue.register("test.recovery", (p) => handler(p.n), opts);
  await queue.start();
  started.push(queue);
  return queue;
}

beforeAll(async () => {
  database = await freshDatabase();
});
afterEach(async () => {
  for (const queue of started.splice(0)) await queue.stop();
  await database.db.execute(sql`delete from pgboss.job where name = 'test.recovery'`);
});
afterAll(async () => {
  await database?.close();
});

const jobsOf = () =>
  rows<{ state: string; heartbeat_seconds: number | null }>(
    database.db,
    sql`select state::text as state, heartbeat_seconds from pgboss.job where name = 'test.recovery'`,
  );

describe("crash recovery with the production settings", () => {
  it("brings a dead worker's job, and a message it was sending, back within 30 s of the crash", () => {
    const s = DEFAULT_QUEUE_SETTINGS;
    // pg-boss's minimum; three heartbeats per window so one slow beat does not fail a live job.
    expect(s.heartbeatSeconds).toBeGreaterThanOrEqual(10);
    expect(s.heartbeatRefreshSeconds * 3).toBeLessThanOrEqual(s.heartbeatSeconds);
    // Worst case for a job on its first attempt: its last heartbeat at the crash, stale heartbeatSeconds later,
    // failed by the next supervisor pass, retried after at most twice the retry delay (pg-boss's jitter), then
    // fetched by the next poll.
    const jobBack =
      s.heartbeatSeconds + s.superviseIntervalSeconds + 2 * s.retryDelaySeconds + s.pollingIntervalSeconds;
    // A message the dead worker was sending: its claim was touched at the crash at the latest.
    const postBack = Math.max(jobBack, CLAIM_STALE_SECONDS);
    // Room left for the retried job's own Slack calls and database work.
    expect(30 - postBack).toBeGreaterThanOrEqual(8);
    // A live worker's call (10 s Web API timeout) never outlives the claim's staleness.
    expect(CLAIM_STALE_SECONDS).toBeGreaterThanOrEqual(2 * 10);
  });

  it("reaches pg-boss: the queue and its jobs carry the heartbeat, retry delay and expiry", async () => {
    const queue = await queueWith({ workers: false }, async () => {});
    const [q] = await rows<{ heartbeat_seconds: number; retry_delay: number; retry_backoff: boolean; expire: number }>(
      database.db,
      sql`select heartbeat_seconds, retry_delay, retry_backoff, expire_seconds as expire from pgboss.queue
          where name = 'test.recovery'`,
    );
    expect(q).toEqual({
      heartbeat_seconds: DEFAULT_QUEUE_SETTINGS.heartbeatSeconds,
      retry_delay: DEFAULT_QUEUE_SETTINGS.retryDelaySeconds,
      retry_backoff: true,
      expire: JOB_EXPIRY_SECONDS,
    });
    await queue.enqueue("test.recovery", { n: 1 });
    expect((await jobsOf()).map((j) => j.heartbeat_seconds)).toEqual([DEFAULT_QUEUE_SETTINGS.heartbeatSeconds]);
  });

  it("sets the queue's own retention (finished jobs a week, waiting ones 14 days), also on a queue made before", async () => {
    const retention = () =>
      rows<{ deletion: number; retention: number }>(
        database.db,
        sql`select deletion_seconds as deletion, retention_seconds as retention from pgboss.queue
            where name = 'test.recovery'`,
      );
    const first = await queueWith({ workers: false }, async () => {});
    expect(await retention()).toEqual([{ deletion: 7 * 86_400, retention: 14 * 86_400 }]);
    await first.stop();
    // A queue left by an older release (or changed by hand) gets the values again on the next start.
    await database.db.execute(
      sql`update pgboss.queue set deletion_seconds = 0, retention_seconds = 60 where name = 'test.recovery'`,
    );
    await queueWith({ workers: false }, async () => {});
    expect(await retention()).toEqual([{ deletion: JOB_DELETE_AFTER_SECONDS, retention: JOB_RETENTION_SECONDS }]);
  });
});

describe("enqueue options", () => {
  it("singletonKey with singletonSeconds creates one job per key and slot; other keys and plain jobs are not held back", async () => {
    const queue = await queueWith({ workers: false }, async () => {});
    await queue.enqueue("test.recovery", { n: 1 }, { singletonKey: "a", singletonSeconds: 3600 });
    await queue.enqueue("test.recovery", { n: 2 }, { singletonKey: "a", singletonSeconds: 3600 });
    await queue.enqueue("test.recovery", { n: 3 }, { singletonKey: "b", singletonSeconds: 3600 });
    await queue.enqueue("test.recovery", { n: 4 }, { singletonKey: "a" });
    await queue.enqueue("test.recovery", { n: 5 }, { singletonKey: "a" });
    const ns = await rows<{ n: number }>(
      database.db,
      sql`select (data->>'n')::int as n from pgboss.job where name = 'test.recovery' order by 1`,
    );
    expect(ns.map((r) => r.n)).toEqual([1, 3, 4, 5]);
  });
});

describe("a handler that must wait (RetryLaterError)", () => {
  it("runs again after exactly the asked delay as a fresh job, however often, without using up its retries", async () => {
    await database.db.execute(sql`delete from pgboss.job where name = 'test.recovery'`);
    let runs = 0;
    // One retry allowed: were a deferral a failure, the third would fail the job for good.
    const queue = await queueWith({ workers: false, retryLimit: 1, retryDelaySeconds: 0 }, async () => {
      runs += 1;
      if (runs <= 3) throw new RetryLaterError(runs === 1 ? 30_000 : 1_500, "Slack said wait");
    });
    await queue.enqueue("test.recovery", { n: 7 });
    const jobs = () =>
      rows<{ state: string; retry_count: number; delay_s: number }>(
        database.db,
        sql`select state::text as state, retry_count,
                   extract(epoch from start_after - created_on)::float8 as delay_s
            from pgboss.job where name = 'test.recovery' order by created_on`,
      );
    const bringForward = () =>
      database.db.execute(
        sql`update pgboss.job set start_after = now() where name = 'test.recovery' and state = 'created'`,
      );

    expect(await queue.drain()).toBe(1);
    let all = await jobs();
    expect(all.map((j) => j.state)).toEqual(["completed", "created"]);
    // Not fetched before its time: the delay is the asked 30 s, not a retry's backoff.
    expect(all[1]!.delay_s).toBeGreaterThanOrEqual(29.5);
    expect(all[1]!.delay_s).toBeLessThanOrEqual(30.5);
    expect(all[1]!.retry_count).toBe(0);
    expect(await queue.drain()).toBe(0);

    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      await bringForward();
      await queue.drain();
      const waiting = (await jobs()).filter((j) => j.state === "created");
      delays.push(...waiting.map((j) => j.delay_s));
    }
    all = await jobs();
    expect(runs).toBe(4);
    expect(all.map((j) => j.state)).toEqual(["completed", "completed", "completed", "completed"]);
    expect(all.every((j) => j.retry_count === 0)).toBe(true);
    // 1.5 s is rounded up to whole seconds (never earlier than asked), twice; the last run completed.
    expect(delays).toHaveLength(2);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(1.5);
      expect(d).toBeLessThanOrEqual(2.5);
    }
  });
});

describe("a job whose worker died", () => {
  it("is failed by the supervisor once its heartbeat is stale, and run again on a live worker", async () => {
    const ran: number[] = [];
    // Test-only: a supervisor pass every second and no retry delay, so the test waits for the heartbeat only.
    const queue = await queueWith(
      { workers: true, superviseIntervalSeconds: 1, retryDelaySeconds: 0, pollingIntervalSeconds: 0.5 },
      async (n) => {
        ran.push(n);
      },
    );
    // Claimed by a worker that has since died: active, its last heartbeat 9 s ago. Queued for later first, so the
    // live worker does not take it before it is marked.
    await queue.enqueue("test.recovery", { n: 7 }, { startAfter: new Date(Date.now() + 3600_000) });
    await database.db.execute(
      sql`update pgboss.job set state = 'active', started_on = now() - interval '9 seconds',
          heartbeat_on = now() - interval '9 seconds' where name = 'test.recovery'`,
    );
    const started = Date.now();
    await expect.poll(() => ran, { timeout: 8_000, interval: 100 }).toEqual([7]);
    // Stale after 1 more second, then at most a supervisor pass and a poll: well before the 300 s expiry.
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(async () => (await jobsOf()).map((j) => j.state)).toEqual(["completed"]);
    expect(ran).toEqual([7]);
  });
});

describe("a live job that runs longer than a heartbeat interval", () => {
  /** How long after it started the active job's last heartbeat came, in ms (0 when it is not active). */
  const beatsDuring = async () => {
    const [job] = await rows<{ ms: number }>(
      database.db,
      sql`select (extract(epoch from heartbeat_on - started_on) * 1000)::float8 as ms from pgboss.job
          where name = 'test.recovery' and state = 'active'`,
    );
    return job?.ms ?? 0;
  };

  it("keeps its heartbeat fresh under the workers", async () => {
    let release = () => {};
    const running = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = await queueWith(
      { workers: true, heartbeatRefreshSeconds: 0.5, pollingIntervalSeconds: 0.5 },
      () => running,
    );
    await queue.enqueue("test.recovery", { n: 1 });
    await expect.poll(() => beatsDuring(), { timeout: 8_000, interval: 100 }).toBeGreaterThan(900);
    release();
    await expect.poll(async () => (await jobsOf()).map((j) => j.state)).toEqual(["completed"]);
  });

  it("keeps its heartbeat fresh under drain(), as another instance's supervisor expects", async () => {
    const queue = await queueWith({ workers: false, heartbeatRefreshSeconds: 0.5 }, () => sleep(1_600));
    await queue.enqueue("test.recovery", { n: 1 });
    const draining = queue.drain();
    await expect.poll(() => beatsDuring(), { timeout: 8_000, interval: 100 }).toBeGreaterThan(900);
    expect(await draining).toBe(1);
    expect((await jobsOf()).map((j) => j.state)).toEqual(["completed"]);
  });
});

describe("the workers", () => {
  const states = () =>
    rows<{ n: number; state: string }>(
      database.db,
      sql`select (data->>'n')::int as n, state::text as state from pgboss.job where name = 'test.recovery' order by 1`,
    );

  it("complete each job as it ends: a slow job holds up no other, and at most `concurrency` run at once", async () => {
    let release = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inFlight = 0;
    let most = 0;
    const ran: number[] = [];
    const queue = await queueWith(
      { workers: true, pollingIntervalSeconds: 0.5 },
      async (n) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          if (n === 0) await slow;
          else await sleep(20);
          ran.push(n);
        } finally {
          inFlight -= 1;
        }
      },
      { concurrency: 4 },
    );
    // The slow one first, so it is fetched together with the first fast ones.
    await queue.enqueue("test.recovery", { n: 0 });
    for (let n = 1; n <= 12; n++) await queue.enqueue("test.recovery", { n });
    // Every fast job is done and settled while the slow one still runs (a batch worker settles a batch only when
    // its slowest job ends, so the fast ones fetched with it would still be active).
    const fastDone = Array.from({ length: 12 }, (_, i) => ({ n: i + 1, state: "completed" }));
    await expect.poll(states, { timeout: 10_000, interval: 50 }).toEqual([{ n: 0, state: "active" }, ...fastDone]);
    expect(most).toBe(4);
    release();
    await expect.poll(states, { timeout: 5_000, interval: 50 }).toEqual([{ n: 0, state: "completed" }, ...fastDone]);
    expect(ran.sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i));
  });

  it("fail a job still running when stop's time is up, so it is retried", async () => {
    const queue = await queueWith({ workers: true, pollingIntervalSeconds: 0.5 }, () => new Promise(() => {}));
    await queue.enqueue("test.recovery", { n: 1 });
    await expect.poll(states, { timeout: 8_000, interval: 50 }).toEqual([{ n: 1, state: "active" }]);
    const began = Date.now();
    await queue.stop(300);
    expect(Date.now() - began).toBeLessThan(3_000);
    expect(await states()).toEqual([{ n: 1, state: "retry" }]);
  });
});

describe("shutting down", () => {
  it("stopFetching: a running job finishes and completes, a job queued afterwards waits for the next instance", async () => {
    const ran: number[] = [];
    let release = () => {};
    const running = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queue = await queueWith({ workers: true, pollingIntervalSeconds: 0.5 }, async (n) => {
      ran.push(n);
      if (n === 1) await running;
    });
    await queue.enqueue("test.recovery", { n: 1 });
    await expect.poll(() => ran, { timeout: 8_000, interval: 50 }).toEqual([1]);
    await queue.stopFetching();
    await queue.enqueue("test.recovery", { n: 2 });
    await sleep(1_600); // three polling intervals
    expect(ran).toEqual([1]);
    release();
    await queue.stop(5_000);
    const states = await rows<{ n: number; state: string }>(
      database.db,
      sql`select (data->>'n')::int as n, state::text as state from pgboss.job where name = 'test.recovery' order by 1`,
    );
    expect(states).toEqual([
      { n: 1, state: "completed" },
      { n: 2, state: "created" },
    ]);
  });
});
