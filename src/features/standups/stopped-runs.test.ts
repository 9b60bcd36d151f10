import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { submitResponse } from "./answers.service.ts";
import { runStanding } from "./runs.repo.ts";
import { tick } from "./scheduler.ts";

/**
 * A run whose schedule is paused or deleted, or whose workspace uninstalls the app, after the run was claimed sends
 * nothing more: its queued fan-out, asks, reminders and summary end quietly (an info line, no retry).
 */
describe("a run stopped after it was claimed", async () => {
  const lines: string[] = [];
  const log = pino(
    { level: "info" },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const t = await useTestApp({ log });
  let n = 0;

  /** A workspace of its own with one schedule at 09:00 UTC (reminder after 120 minutes), claimed by a tick. */
  async function claimedRun(people: string[]) {
    n += 1;
    const teamId = `T0STP${n}`;
    const channelId = `C0STP${n}`;
    await t.installTeam(teamId);
    for (const u of people) {
      t.fake.addUser(teamId, { id: u, name: u.toLowerCase(), real_name: u });
      await t.addMember(teamId, u);
    }
    t.fake.addChannel(teamId, { id: channelId, name: `stp${n}`, members: [...people, `B${teamId.slice(1)}BOT`] });
    const scheduleId = await createSchedule(t.deps.db, t.clock, {
      teamId,
      channelId,
      time: "09:00",
      days: "mon,tue,wed,thu,fri,sat,sun",
    });
    const day = `2026-05-${String(n).padStart(2, "0")}`;
    t.clock.set(`${day}T09:00:05Z`);
    const [runId] = (await tick(t.deps)).started;
    expect(runId).toBeDefined();
    return {
      teamId,
      channelId,
      scheduleId,
      runId: runId!,
      day,
      posts: () => t.fake.callsTo("chat.postMessage").filter((c) => c.ok && c.teamId === teamId),
      dms: (u: string) => t.fake.messages(t.fake.dmFor(teamId, u)),
      jobs: () =>
        rows<{ name: string; state: string; retry_count: number }>(
          t.deps.db,
          sql`select name, state::text as state, retry_count from pgboss.job where data->>'teamId' = ${teamId}
              order by name, created_on`,
        ),
      ended: () =>
        lines
          .map(
            (l) => JSON.parse(l) as { msg: string; team_id?: string; job?: string; standing?: string; level: number },
          )
          .filter((l) => l.team_id === teamId && l.msg === "standup job ended: its run was stopped")
          .map((l) => ({ job: l.job, standing: l.standing, level: l.level })),
    };
  }
  const pause = (scheduleId: string) =>
    t.deps.db.execute(sql`update schedules set active = false where id = ${scheduleId}`);
  const remove = (scheduleId: string) =>
    t.deps.db.execute(sql`update schedules set deleted_at = now() where id = ${scheduleId}`);

  it("paused before its fan-out ran: no parent message, nobody asked, the job ends without retrying", async () => {
    const run = await claimedRun(["U0STPA1", "U0STPA2"]);
    await pause(run.scheduleId);
    await t.deps.queue.drain();

    expect(run.posts()).toEqual([]);
    expect(await rows(t.deps.db, sql`select 1 from run_participants where run_id = ${run.runId}`)).toEqual([]);
    expect(await run.jobs()).toEqual([{ name: "standup.fanout", state: "completed", retry_count: 0 }]);
    expect(run.ended()).toEqual([{ job: "standup.fanout", standing: "paused", level: 30 }]);
  });

  it("deleted while its asks wait (say, to be retried after a crash): no DM, no reminder, no summary", async () => {
    const run = await claimedRun(["U0STPB1", "U0STPB2"]);
    // The asks open their DM conversation slowly; the schedule is deleted meanwhile, once the fan-out has claimed
    // the participants and queued their asks.
    t.fake.fail("conversations.open", { delayMs: 1_000 }, 2);
    const draining = t.deps.queue.drain();
    await expect
      .poll(() => rows(t.deps.db, sql`select 1 from run_participants where run_id = ${run.runId}`), { interval: 10 })
      .toHaveLength(2);
    await remove(run.scheduleId);
    await draining;
    expect(run.posts().map((c) => c.args.channel)).toEqual([run.channelId]); // the parent message only

    t.clock.set(`${run.day}T11:00:10Z`);
    expect((await tick(t.deps)).reminded).toBe(1);
    await t.deps.queue.drain();
    t.clock.set(`${run.day}T23:59:59Z`);
    t.clock.advance(15_000);
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();

    expect(run.posts()).toHaveLength(1);
    expect(run.dms("U0STPB1")).toEqual([]);
    expect(run.dms("U0STPB2")).toEqual([]);
    expect((await run.jobs()).every((j) => j.state === "completed" && j.retry_count === 0)).toBe(true);
    expect(run.ended()).toEqual([
      { job: "standup.ask", standing: "deleted", level: 30 },
      { job: "standup.ask", standing: "deleted", level: 30 },
      { job: "standup.remind", standing: "deleted", level: 30 },
      { job: "standup.remind", standing: "deleted", level: 30 },
      { job: "standup.summary", standing: "deleted", level: 30 },
    ]);
  });

  it("paused after its asks went out: no reminder and no summary, but an answer to an ask already sent is still posted in the thread", async () => {
    const run = await claimedRun(["U0STPC1", "U0STPC2"]);
    await t.deps.queue.drain();
    expect(run.dms("U0STPC1")).toHaveLength(1);
    await pause(run.scheduleId);

    const answered = await submitResponse(t.deps, {
      teamId: run.teamId,
      runId: run.runId,
      userId: "U0STPC1",
      answers: ["Shipped it", "Ship more", "none"],
      mood: null,
    });
    expect(answered.ok).toBe(true);
    await t.deps.queue.drain();
    const parent = t.fake.messages(run.channelId).find((m) => !m.thread_ts)!;
    expect(t.fake.messages(run.channelId).filter((m) => m.thread_ts === parent.ts)).toHaveLength(1);
    expect(run.dms("U0STPC1")).toHaveLength(2); // the ask and the confirmation

    t.clock.set(`${run.day}T11:00:10Z`);
    await tick(t.deps);
    await t.deps.queue.drain();
    t.clock.set(`${run.day}T23:59:59Z`);
    t.clock.advance(15_000);
    await tick(t.deps);
    await t.deps.queue.drain();

    expect(run.dms("U0STPC2")).toHaveLength(1); // the ask only, no reminder
    expect(t.fake.messages(run.channelId).filter((m) => m.text.startsWith("Standup closed"))).toEqual([]);
    expect(run.ended()).toEqual([
      { job: "standup.remind", standing: "paused", level: 30 },
      { job: "standup.summary", standing: "paused", level: 30 },
    ]);
  });

  it("reads the run's standing from its schedule and workspace as they are now", async () => {
    const run = await claimedRun([]);
    const standing = () => runStanding(t.deps.db, run.teamId, run.runId);
    expect(await standing()).toBe("live");
    await pause(run.scheduleId);
    expect(await standing()).toBe("paused");
    await remove(run.scheduleId);
    expect(await standing()).toBe("deleted");
    await t.deps.db.execute(sql`update installations set uninstalled_at = now() where team_id = ${run.teamId}`);
    expect(await standing()).toBe("uninstalled");
    expect(await runStanding(t.deps.db, "T0OTHER", run.runId)).toBe("missing");
  });
});
