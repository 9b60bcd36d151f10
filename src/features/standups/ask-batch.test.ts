import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { claimedRun } from "../../../test/support/ask-chunks.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { CLAIM_STALE_SECONDS } from "../../chat/post-once.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { erasePerson } from "../data-removal/index.ts";
import { ASK_CHUNK } from "./ask-batch.ts";
import { tick } from "./scheduler.ts";

/**
 * The fan-out's asks in chunks (ask-batch.ts): each member of a chunk is asked exactly once, whatever happens to the
 * chunk's job (a crash after its posts, a 429 on one DM, a stop halfway), and records what the single ask records.
 */
describe("asks in chunks", async () => {
  const t = await useTestApp();

  it("a fan-out of two chunks asks each member exactly once and records it as the single ask does", async () => {
    t.fake.reset();
    const run = await claimedRun(t, ASK_CHUNK + 5, "B");
    await t.deps.queue.drain();
    for (const u of run.people) expect(run.asks(u), u).toBe(1);
    const jobs = (await run.jobs()).map(({ data: _data, ...job }) => job);
    // Two chunks and no single ask: every member was the plain case.
    expect(jobs).toEqual([
      { name: "standup.asks", state: "completed", retry_count: 0 },
      { name: "standup.asks", state: "completed", retry_count: 0 },
    ]);
    for (const p of await run.participants()) {
      expect(p.status).toBe("asked");
      expect(p.dm_channel).toBe(t.fake.dmFor(run.teamId, p.user_id));
      expect(p.asked_at).not.toBeNull();
      expect(p.remind_at).not.toBeNull();
    }
    const [posts] = await rows<{ sent: number; first: number }>(
      t.deps.db,
      sql`select count(*) filter (where state = 'sent' and ts is not null)::int as sent,
                 (select count(*)::int from dm_questions where run_id = ${run.runId} and ts is not null) as first
          from chat_posts where key like ${`run:${run.runId}:ask:%`}`,
    );
    expect(posts).toEqual({ sent: run.people.length, first: run.people.length });
    // Their first question is asked in the DM: an answer there belongs to this run.
    expect(t.fake.messages(t.fake.dmFor(run.teamId, run.people[0]!)).at(-1)?.text).toContain("Time for standup");
    await t.deps.queue.drain();
    for (const u of run.people) expect(run.asks(u), u).toBe(1);
  });

  it("a chunk whose job died after a post is retried: the rest are found by their key, nothing is posted twice", async () => {
    t.fake.reset();
    const run = await claimedRun(t, 6, "B");
    // The posts go out, then recording them fails (as a crash right after the posts would leave them): the claims
    // stay `sending` and the job fails.
    await t.deps.db.execute(
      sql.raw(`create function fault_asked() returns trigger language plpgsql as $$
        begin
          if new.asked_at is not null and old.asked_at is null then raise exception 'injected fault recording asks'; end if;
          return new;
        end $$`),
    );
    await t.deps.db.execute(
      sql.raw(
        "create trigger fault_asked before update on run_participants for each row execute function fault_asked()",
      ),
    );
    await t.deps.queue.drain({ maxRounds: 1 });
    await t.deps.db.execute(sql.raw("drop trigger fault_asked on run_participants"));
    await t.deps.db.execute(sql.raw("drop function fault_asked()"));
    expect((await run.jobs()).map((j) => [j.name, j.state])).toEqual([["standup.asks", "retry"]]);
    // Each DM is recorded as soon as it is posted: the first record failed, so the workers stopped with the DMs
    // already in flight posted and the rest not.
    const atCrash = run.people.filter((u) => run.asks(u) === 1);
    expect(atCrash.length).toBeGreaterThan(0);
    for (const u of run.people) expect(run.asks(u), u).toBeLessThanOrEqual(1);
    // The dead worker's claims go stale (CLAIM_STALE_SECONDS, brought forward here); the retry hands every member to
    // the single ask, which looks their message up instead of posting again.
    const age = () =>
      t.deps.db.execute(
        sql`update chat_posts set updated_at = now() - make_interval(secs => ${CLAIM_STALE_SECONDS + 1})
            where state in ('sending', 'unknown')`,
      );
    for (let round = 0; round < 10; round++) {
      await age();
      if ((await t.deps.queue.drain({ maxRounds: 1 })) === 0) break;
    }
    for (const u of run.people) expect(run.asks(u), u).toBe(1);
    const states = await rows<{ state: string }>(
      t.deps.db,
      sql`select state from chat_posts where key like ${`run:${run.runId}:ask:%`}`,
    );
    expect(states.map((s) => s.state)).toEqual(run.people.map(() => "sent"));
    for (const p of await run.participants()) expect(p.asked_at, p.user_id).not.toBeNull();
  });

  it("a chunk's DM that times out while Slack still posts it: its claim is left unknown, the single ask finds it", async () => {
    t.fake.reset();
    const run = await claimedRun(t, 3, "B");
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    const sentAsks = async () =>
      (await t.deps.metrics.dmsSent.get()).values.find((v) => v.labels.kind === "ask")?.value ?? 0;
    const before = await sentAsks();
    // The first DM hangs in front of Slack past the client's 10 s timeout; Slack posts it all the same.
    t.fake.fail("chat.postMessage", { delayMs: 11_000 }, 1);
    await t.deps.queue.drain({ only: ["standup.asks"], maxRounds: 1 });
    const states = () =>
      rows<{ key: string; state: string }>(
        t.deps.db,
        sql`select key, state from chat_posts where key like ${`run:${run.runId}:ask:%`} order by key`,
      );
    expect((await states()).map((s) => s.state).sort()).toEqual(["sent", "sent", "unknown"]);
    await expect
      .poll(() => run.people.filter((u) => run.asks(u) === 1).length, { interval: 50, timeout: 5_000 })
      .toBe(3);
    // The claim goes stale as its owner's would; the single ask looks the message up instead of posting again.
    for (let round = 0; round < 5; round++) {
      await t.deps.db.execute(
        sql`update chat_posts set updated_at = now() - make_interval(secs => ${CLAIM_STALE_SECONDS + 1})
            where state in ('sending', 'unknown')`,
      );
      await t.deps.db.execute(sql`update pgboss.job set start_after = now() where state in ('created', 'retry')`);
      if ((await t.deps.queue.drain({ maxRounds: 1 })) === 0) break;
    }
    for (const u of run.people) expect(run.asks(u), u).toBe(1);
    expect((await states()).map((s) => s.state)).toEqual(["sent", "sent", "sent"]);
    for (const p of await run.participants()) expect(p.asked_at, p.user_id).not.toBeNull();
    // Each DM counted once: the timed-out one by the single ask that found it, not by the chunk too.
    expect((await sentAsks()) - before).toBe(3);
  }, 40_000);

  it("a 429 on one DM of a chunk: that DM waits out its Retry-After in the same job, the others go on, each once", async () => {
    t.fake.reset();
    t.fake.fail("chat.postMessage", { delayMs: 0 }, 1); // the parent message
    t.fake.fail("chat.postMessage", { status: 429, retryAfter: 1 }, 1);
    const run = await claimedRun(t, 8, "B");
    const started = Date.now();
    await t.deps.queue.drain();
    for (const u of run.people) expect(run.asks(u), u).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    const calls = t.fake.callsTo("chat.postMessage").filter((c) => c.teamId === run.teamId);
    const limited = calls.find((c) => c.faulted);
    expect(limited).toBeDefined();
    const retried = calls.filter((c) => c.ok && c.args.channel === limited!.args.channel);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.at - limited!.at).toBeGreaterThanOrEqual(990);
    // No job failed or used a retry.
    expect((await run.jobs()).every((j) => j.state === "completed" && j.retry_count === 0)).toBe(true);
  });

  it("a member erased while their chunk waits is taken out of it and never asked; the others are asked", async () => {
    t.fake.reset();
    const run = await claimedRun(t, 4, "B");
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    const [gone, ...rest] = run.people;
    const erased = await t.deps.db.transaction((tx) => erasePerson(tx, run.teamId, gone!));
    expect(erased.jobs).toBe(1);
    const [chunk] = await rows<{ ids: string[] }>(
      t.deps.db,
      sql`select data->'userIds' as ids from pgboss.job where name = 'standup.asks' and data->>'teamId' = ${run.teamId}`,
    );
    expect(chunk!.ids).toEqual(rest);
    await t.deps.queue.drain();
    expect(run.asks(gone!)).toBe(0);
    for (const u of rest) expect(run.asks(u), u).toBe(1);
  });

  it("a run paused while its chunk posts stops there: the rest are not asked (pending), each asked one has one DM", async () => {
    t.fake.reset();
    const size = 20;
    const run = await claimedRun(t, size, "B");
    // The workspace's bucket is empty (tat a full burst ahead): the chunk's DMs go at the sustained 10 a second.
    await t.deps.db.execute(
      sql`insert into chat_rate_buckets (team_id, bucket, interval_ms, burst, tat, granted, wait_ms, updated_at)
          values (${run.teamId}, 'chat.postMessage', 100, 100, now() + interval '10 seconds', true, 0, now())`,
    );
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    const draining = t.deps.queue.drain({ only: ["standup.asks"] });
    await expect
      .poll(() => run.people.filter((u) => run.asks(u) > 0).length, { interval: 20, timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    await t.deps.db.execute(sql`update schedules set active = false where id = ${run.scheduleId}`);
    await draining;
    await t.deps.queue.drain();
    const asked = run.people.filter((u) => run.asks(u) > 0);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.length).toBeLessThan(size);
    for (const u of asked) expect(run.asks(u), u).toBe(1);
    const statuses = Object.fromEntries((await run.participants()).map((p) => [p.user_id, p.status]));
    for (const u of run.people) expect(statuses[u], u).toBe(asked.includes(u) ? "asked" : "pending");
    expect((await run.jobs()).every((j) => j.state === "completed" && j.retry_count === 0)).toBe(true);
  });
});

/** Two instances sharing one run's chunks while Slack answers 429 to some posts: every DM once, no job failed. */
describe.runIf(onPostgres)("two instances asking one run in chunks", () => {
  const people = Array.from({ length: 3 * ASK_CHUNK - 3 }, (_, i) => `U0ABW${String(i).padStart(3, "0")}`);
  const clock = new ManualClock("2026-03-02T08:00:00Z");
  let two: Awaited<ReturnType<typeof startTwoInstances>>;
  beforeAll(async () => {
    two = await startTwoInstances({ clock });
    await two.a.installTeam("T0ABW");
    for (const u of people) {
      two.fake.addUser("T0ABW", { id: u, name: u.toLowerCase(), real_name: u });
      await two.a.addMember("T0ABW", u);
    }
    two.fake.addChannel("T0ABW", { id: "C0ABW", name: "abw", members: [...people, "BT0ABWBOT"] });
    await createSchedule(two.a.deps.db, clock, { teamId: "T0ABW", channelId: "C0ABW", time: "09:00", tz: "UTC" });
  });
  afterAll(async () => {
    two?.fake.setRandomFaults(null);
    await two?.close();
  });

  it("posts each DM exactly once", async () => {
    two.fake.setRandomFaults({
      method: "chat.postMessage",
      ratio: 0.2,
      fault: { status: 429, retryAfter: 1 },
      seed: 27,
    });
    clock.set("2026-03-02T09:00:03Z");
    await Promise.all([tick(two.a.deps), tick(two.b.deps)]);
    await Promise.all([
      two.a.deps.queue.drain({ only: ["standup.fanout"] }),
      two.b.deps.queue.drain({ only: ["standup.fanout"] }),
    ]);
    // One chunk per fetch, so both instances take chunks of the run at the same time (each takes ≥ 1 s: a 429).
    const chunks = (i: typeof two.a) => i.deps.queue.drain({ only: ["standup.asks"], batchSize: 1 });
    const [byA, byB] = await Promise.all([chunks(two.a), chunks(two.b)]);
    expect(byA, "chunks run by A").toBeGreaterThan(0);
    expect(byB, "chunks run by B").toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await Promise.all([two.a.deps.queue.drain(), two.b.deps.queue.drain()]);
    expect(two.fake.callsTo("chat.postMessage").filter((c) => c.faulted).length).toBeGreaterThan(2);
    for (const u of people) {
      const dms = two.fake.messages(two.fake.dmFor("T0ABW", u)).filter((m) => m.text.startsWith("Time for standup"));
      expect(dms, u).toHaveLength(1);
    }
    const jobs = await rows<{ name: string; state: string; retry_count: number }>(
      two.a.deps.db,
      sql`select name, state::text as state, retry_count from pgboss.job
          where name in ('standup.asks', 'standup.ask') and data->>'teamId' = 'T0ABW'`,
    );
    expect(jobs.filter((j) => j.name === "standup.asks")).toHaveLength(3);
    expect(jobs.every((j) => j.state === "completed" && j.retry_count === 0)).toBe(true);
  });
});
