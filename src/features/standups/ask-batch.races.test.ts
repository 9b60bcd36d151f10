import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { claimedRun } from "../../../test/support/ask-chunks.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { answerInConversation, skipRun } from "./answers.service.ts";
import { claimBatch } from "./ask-batch.repo.ts";
import { POSTS_IN_FLIGHT } from "./ask-batch.ts";
import { findRun } from "./runs.repo.ts";
import { tick } from "./scheduler.ts";

/**
 * The chunked asks (ask-batch.ts) against what happens while a chunk runs: a member answering their DM before the
 * chunk is done, a member who stops waiting for their ask between the chunk's read and its claims, a run paused while
 * the chunk posts.
 */
describe("asks in chunks while things happen", async () => {
  const t = await useTestApp();

  it("an answer typed right after the ask DM, while the chunk's next DM is slow, answers question 1 of the run", async () => {
    t.fake.reset();
    const run = await claimedRun(t, 8, "R");
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    // The parent message and the chunk's first ask go at once; the next ask hangs 3 s in front of Slack.
    t.fake.fail("chat.postMessage", { delayMs: 0 }, 1);
    const draining = t.deps.queue.drain({ only: ["standup.asks", "standup.ask"] });
    await expect
      .poll(() => t.fake.callsTo("chat.postMessage").filter((c) => c.teamId === run.teamId).length, {
        interval: 5,
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);
    t.fake.fail("chat.postMessage", { delayMs: 0 }, 1);
    t.fake.fail("chat.postMessage", { delayMs: 8_000 }, 1);
    let who: string | undefined;
    await expect
      .poll(() => (who = run.people.find((u) => run.asks(u) > 0)), { interval: 5, timeout: 10_000 })
      .toBeDefined();
    // The DM's first question is on record while the chunk's next DM still hangs (8 s): waited for, not a fixed
    // 0.3 s, so a loaded machine cannot fail it; a chunk that recorded its DMs only at its end would time out here.
    await expect
      .poll(
        async () =>
          (
            await rows<{ ts: string | null }>(
              t.deps.db,
              sql`select ts from dm_questions where team_id = ${run.teamId} and user_id = ${who!} and run_id = ${run.runId} and question_index = 0`,
            )
          )[0]?.ts ?? null,
        { interval: 20, timeout: 6_000 },
      )
      .not.toBeNull();
    const dm = run.askOf(who!)[0]!;
    const reply = await answerInConversation(
      t.deps,
      run.teamId,
      who!,
      "Shipped the thing",
      (Number(dm.ts) + 0.000001).toFixed(6),
    );
    await draining;
    expect(reply).toMatchObject({ kind: "next", index: 1, runId: run.runId });
    for (const u of run.people) expect(run.asks(u), u).toBe(1);
  });

  it("a member who skips between the chunk's read and its claims gets no DM and no claim; the others are asked", async () => {
    t.fake.reset();
    const run = await claimedRun(t, 4, "R");
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    // Everyone's first standup: the chunk opens their DMs after reading them; the first open is slow.
    t.fake.fail("conversations.open", { delayMs: 800 }, 1);
    const draining = t.deps.queue.drain({ only: ["standup.asks", "standup.ask"] });
    await expect
      .poll(() => t.fake.callsTo("conversations.open").filter((c) => c.teamId === run.teamId).length, {
        interval: 5,
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);
    const [gone, ...rest] = run.people;
    expect(await skipRun(t.deps, run.teamId, run.runId, gone!)).toBe(true);
    await draining;
    await t.deps.queue.drain();
    expect(run.asks(gone!)).toBe(0);
    for (const u of rest) expect(run.asks(u), u).toBe(1);
    const claims = await rows<{ key: string }>(
      t.deps.db,
      sql`select key from chat_posts where key = ${`run:${run.runId}:ask:${gone}`}`,
    );
    expect(claims).toEqual([]);
    const statuses = Object.fromEntries((await run.participants()).map((p) => [p.user_id, p.status]));
    expect(statuses[gone!]).toBe("skipped");
  });

  it("a run paused while its chunk posts sends no DM once the pause is committed (those already in flight aside)", async () => {
    t.fake.reset();
    const run = await claimedRun(t, 20, "R");
    // The chunk's DMs go at the sustained 10 a second (the bucket holds a full burst already).
    await run.fillBucket("chat.postMessage", 100, 10);
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    const draining = t.deps.queue.drain({ only: ["standup.asks"] });
    await expect
      .poll(() => run.people.filter((u) => run.asks(u) > 0).length, { interval: 10, timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    await t.deps.db.execute(sql`update schedules set active = false where id = ${run.scheduleId}`);
    const pausedAt = Date.now();
    await draining;
    await t.deps.queue.drain();
    const after = t.fake
      .callsTo("chat.postMessage")
      .filter((c) => c.teamId === run.teamId && c.at > pausedAt && String(c.args.text).startsWith("Time for standup"));
    // At most the DMs whose check passed right before the commit: one at 10 a second on a quiet machine, never more
    // than the chunk's posts in flight (a loaded machine may delay a checked post past the commit).
    expect(after.length).toBeLessThanOrEqual(POSTS_IN_FLIGHT);
    const asked = run.people.filter((u) => run.asks(u) > 0);
    expect(asked.length).toBeLessThan(run.people.length);
    for (const u of asked) expect(run.asks(u), u).toBe(1);
  });

  // Two connections at once: PostgreSQL only (the embedded database runs one statement at a time).
  it.runIf(onPostgres)("chunks of two overlapping runs claim the same members at once without a deadlock", async () => {
    t.fake.reset();
    const first = await claimedRun(t, 120, "R");
    await createSchedule(t.deps.db, t.clock, {
      teamId: first.teamId,
      channelId: first.channelId,
      time: "09:00",
      tz: "UTC",
      days: "mon,tue,wed,thu,fri,sat,sun",
    });
    const [secondId] = (await tick(t.deps)).started;
    expect(secondId).toBeDefined();
    await t.deps.queue.drain({ only: ["standup.fanout"] });
    const a = (await findRun(t.deps.db, first.teamId, first.runId))!;
    const b = (await findRun(t.deps.db, first.teamId, secondId!))!;
    const members = first.people.map((userId, i) => ({ userId, channel: `D0DL${i}` }));
    // The two chunks list the members in opposite orders; each statement takes their dm_turns rows.
    for (let round = 0; round < 10; round++) {
      await Promise.all([
        claimBatch(t.deps.db, a, members, t.clock.now()),
        claimBatch(t.deps.db, b, [...members].reverse(), t.clock.now()),
      ]);
    }
    const [turns] = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from dm_turns where team_id = ${first.teamId}`,
    );
    expect(turns!.n).toBe(first.people.length);
  });
});
