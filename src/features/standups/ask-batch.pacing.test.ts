import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { claimedRun } from "../../../test/support/ask-chunks.ts";

/**
 * The chunked asks (ask-batch.ts) against Slack's limits: a 429 on a DM open pauses the workspace's opens at once,
 * and a chunk that gets only part of its post slots leaves the rest to one later chunk, without opening a DM twice.
 */
describe("asks in chunks under Slack's limits", async () => {
  const t = await useTestApp();
  const opensOf = (teamId: string) => t.fake.callsTo("conversations.open").filter((c) => c.teamId === teamId);

  it("a conversations.open 429 with Retry-After 5 s: no other open of the workspace within those 5 s", async () => {
    t.fake.reset();
    const run = await claimedRun(t, 8, "P");
    // Opens 0.6 s apart (the bucket is full but for its sustained rate); the first one meets a 429.
    await run.fillBucket("conversations.open", 600, 59.4);
    t.fake.fail("conversations.open", { status: 429, retryAfter: 5 }, 1);
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    await t.deps.queue.drain({ only: ["standup.asks"], maxRounds: 1 });
    const opens = opensOf(run.teamId);
    const limited = opens.find((c) => c.faulted);
    expect(limited).toBeDefined();
    const early = opens.filter((c) => !c.faulted && c.at > limited!.at && c.at - limited!.at < 4_950);
    expect(early.map((c) => c.at - limited!.at)).toEqual([]);
  });

  it("a chunk granted only part of its post slots: one chunk job for the rest at the next free slot, 8 opens, one DM each", async () => {
    t.fake.reset();
    const run = await claimedRun(t, 8, "P");
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    // The first post slot is 9.5 s away: about six fit in the inline wait (10 s), the others do not.
    await run.fillBucket("chat.postMessage", 100, 19.4);
    await t.deps.queue.drain({ only: ["standup.asks", "standup.ask"], maxRounds: 1 });
    const asked = run.people.filter((u) => run.asks(u) === 1);
    // About six (the time between filling the bucket and the chunk's take moves it by one).
    expect(asked.length).toBeGreaterThanOrEqual(4);
    expect(asked.length).toBeLessThan(8);
    const jobs = await run.jobs();
    expect(jobs.map((j) => [j.name, j.state])).toEqual([
      ["standup.asks", "completed"],
      ["standup.asks", "created"],
    ]);
    const rest = run.people.filter((u) => !asked.includes(u));
    expect([...jobs[1]!.data.userIds!].sort()).toEqual(rest);
    // Every DM the chunk opened is stored, the rest's too: the later chunk does not open them again.
    expect((await run.participants()).every((p) => p.dm_channel !== null)).toBe(true);
    const [due] = await t.deps.db
      .execute(
        sql`select extract(epoch from start_after - now())::float8 as s from pgboss.job
          where name = 'standup.asks' and state = 'created' and data->>'teamId' = ${run.teamId}`,
      )
      .then((r) => (r as unknown as { rows: { s: number }[] }).rows);
    // Due at the next free slot (about 10 s after the chunk took its six).
    expect(due!.s).toBeGreaterThan(0);
    expect(due!.s).toBeLessThan(12);
    await t.deps.db.execute(
      sql`update pgboss.job set start_after = now() where name = 'standup.asks' and data->>'teamId' = ${run.teamId}`,
    );
    await t.deps.queue.drain();
    for (const u of run.people) expect(run.asks(u), u).toBe(1);
    expect(opensOf(run.teamId)).toHaveLength(8);
    expect((await run.jobs()).filter((j) => j.name === "standup.ask")).toEqual([]);
  });
});
