import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../../../dev/fake-slack/index.ts";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { type Executor, rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

type AskJob = { state: string; retry_count: number; delay_s: number };
/** The ask jobs of a workspace (chunks and single asks), oldest first, with how far after its creation each may start. */
const askJobs = (db: Executor, teamId: string) =>
  rows<AskJob>(
    db,
    sql`select state::text as state, retry_count, extract(epoch from start_after - created_on)::float8 as delay_s
        from pgboss.job where name in ('standup.ask', 'standup.asks') and data->>'teamId' = ${teamId}
        order by created_on`,
  );

async function workspace(t: Pick<TestApp, "installTeam" | "addMember" | "fake">, teamId: string, people: string[]) {
  await t.installTeam(teamId);
  for (const u of people) {
    t.fake.addUser(teamId, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(teamId, u);
  }
  t.fake.addChannel(teamId, { id: `C${teamId.slice(1)}`, name: "ra", members: [...people, `B${teamId.slice(1)}BOT`] });
}

const askDms = (fake: FakeSlack, teamId: string, userId: string) =>
  fake.messages(fake.dmFor(teamId, userId)).filter((m) => m.text.startsWith("Time for standup")).length;

/** Slack's Retry-After is honoured exactly, by the job that got it, and never counted as a failure. */
describe("an ask under Slack 429s", async () => {
  const t = await useTestApp();
  let n = 0;

  async function startRun(people: string[]): Promise<string> {
    n += 1;
    const teamId = `T0RA${n}`;
    await t.deps.db.execute(sql`update schedules set active = false`);
    await workspace(t, teamId, people);
    await createSchedule(t.deps.db, t.clock, {
      teamId,
      channelId: `C${teamId.slice(1)}`,
      time: "09:00",
      tz: "UTC",
      days: "mon,tue,wed,thu,fri,sat,sun",
    });
    t.clock.set(`2026-05-${String(n).padStart(2, "0")}T09:00:05Z`);
    expect((await tick(t.deps)).started.length).toBe(1);
    return teamId;
  }

  it("Retry-After: 2 three times on the same DM: each retry 2 s after its 429, in the same job, no retry used", async () => {
    t.fake.reset();
    // The run's parent message goes through (a zero delay takes the first place in the fault queue); the ask gets three 429s.
    t.fake.fail("chat.postMessage", { delayMs: 0 }, 1);
    t.fake.fail("chat.postMessage", { status: 429, retryAfter: 2 }, 3);
    const teamId = await startRun(["U0RA1"]);
    await t.deps.queue.drain();

    const calls = t.fake.callsTo("chat.postMessage");
    expect(calls.map((c) => (c.faulted ? "429" : c.ok ? "ok" : c.error))).toEqual(["ok", "429", "429", "429", "ok"]);
    for (let i = 1; i <= 3; i++) {
      const gap = calls[i + 1]!.at - calls[i]!.at;
      // Not before Slack said, and not a backoff later (the test queue retries at once: a failure would not wait).
      expect(gap, `retry ${i}`).toBeGreaterThanOrEqual(1_990);
      expect(gap, `retry ${i}`).toBeLessThan(3_000);
    }
    expect(askDms(t.fake, teamId, "U0RA1")).toBe(1);
    expect(await askJobs(t.deps.db, teamId)).toEqual([{ state: "completed", retry_count: 0, delay_s: 0 }]);
  });

  it("Retry-After: 30 defers the job by exactly 30 s (nothing posted, no retry used), then posts once", async () => {
    t.fake.reset();
    t.fake.fail("chat.postMessage", { delayMs: 0 }, 1);
    t.fake.fail("chat.postMessage", { status: 429, retryAfter: 30 }, 1);
    const teamId = await startRun(["U0RB1"]);
    await t.deps.queue.drain();

    expect(askDms(t.fake, teamId, "U0RB1")).toBe(0);
    const jobs = await askJobs(t.deps.db, teamId);
    expect(jobs.map((j) => [j.state, j.retry_count])).toEqual([
      ["completed", 0],
      ["created", 0],
    ]);
    expect(jobs[1]!.delay_s).toBeGreaterThanOrEqual(29.5);
    expect(jobs[1]!.delay_s).toBeLessThanOrEqual(30.5);
    // Slack limits chat.postMessage per channel: the rest of the workspace's posts are not held back.
    const [bucket] = await rows<{ paused_until: string | null }>(
      t.deps.db,
      sql`select paused_until::text from chat_rate_buckets where team_id = ${teamId} and bucket = 'chat.postMessage'`,
    );
    expect(bucket!.paused_until).toBeNull();

    // 30 s later (brought forward here): the deferred job posts the DM, once.
    await t.deps.db.execute(
      sql`update pgboss.job set start_after = now() where name = 'standup.ask' and state = 'created'`,
    );
    await t.deps.queue.drain();
    expect(askDms(t.fake, teamId, "U0RB1")).toBe(1);
    expect((await askJobs(t.deps.db, teamId)).map((j) => j.state)).toEqual(["completed", "completed"]);
  });
});

/** Two instances draining one fan-out while Slack answers 429 to a third of the posts: every DM once. */
describe.runIf(onPostgres)("two instances under Slack 429s", () => {
  const people = Array.from({ length: 24 }, (_, i) => `U0RT${String(i).padStart(3, "0")}`);
  const clock = new ManualClock("2026-03-02T08:00:00Z");
  let two: Awaited<ReturnType<typeof startTwoInstances>>;

  beforeAll(async () => {
    two = await startTwoInstances({ clock });
    await workspace(two.a, "T0RTWO", people);
    await createSchedule(two.a.deps.db, clock, { teamId: "T0RTWO", channelId: "C0RTWO", time: "09:00", tz: "UTC" });
  });
  afterAll(async () => {
    two?.fake.setRandomFaults(null);
    await two?.close();
  });

  it("posts each DM exactly once and fails no job", async () => {
    two.fake.setRandomFaults({
      method: "chat.postMessage",
      ratio: 0.3,
      fault: { status: 429, retryAfter: 1 },
      seed: 1_402,
    });
    clock.set("2026-03-02T09:00:03Z");
    await Promise.all([tick(two.a.deps), tick(two.b.deps)]);
    // Deferred or not, every job is run by one of the two; drained until nothing is left.
    for (let i = 0; i < 3; i++) await Promise.all([two.a.deps.queue.drain(), two.b.deps.queue.drain()]);

    expect(two.fake.callsTo("chat.postMessage").filter((c) => c.faulted).length).toBeGreaterThan(3);
    for (const u of people) expect(askDms(two.fake, "T0RTWO", u), u).toBe(1);
    expect(two.fake.messages("C0RTWO").filter((m) => !m.thread_ts)).toHaveLength(1);
    const jobs = await askJobs(two.a.deps.db, "T0RTWO");
    expect(jobs.every((j) => j.state === "completed" && j.retry_count === 0)).toBe(true);
  });
});
