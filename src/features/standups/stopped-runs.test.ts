import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { reinstallTeam } from "../../../test/support/install.ts";
import { rows } from "../../db/client.ts";
import { getToday } from "../insights/index.ts";
import { updateSchedule } from "../schedules/index.ts";
import { submitResponse } from "./answers.service.ts";
import { buildHomeView } from "./home.ts";
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
    // Only this case's schedule may run (an earlier case may have resumed its own), so its faults hit its messages.
    await t.deps.db.execute(sql`update schedules set active = false`);
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
      statuses: async () =>
        Object.fromEntries(
          (
            await rows<{ user_id: string; status: string }>(
              t.deps.db,
              sql`select user_id, status from run_participants where run_id = ${runId} order by user_id`,
            )
          ).map((p) => [p.user_id, p.status]),
        ),
    };
  }
  type Run = Awaited<ReturnType<typeof claimedRun>>;
  /**
   * The reminder pass (09:00 + 120 minutes), then the close at the end of the day; each one's jobs run. `reminds`:
   * whether the pass reminds anyone (only members whose ask went out have a reminder time).
   */
  async function remindAndClose(run: Run, reminds: boolean) {
    t.clock.set(`${run.day}T11:00:10Z`);
    expect((await tick(t.deps)).reminded).toBe(reminds ? 1 : 0);
    await t.deps.queue.drain();
    t.clock.set(`${run.day}T23:59:59Z`);
    t.clock.advance(15_000);
    expect((await tick(t.deps)).closed).toBe(1);
    await t.deps.queue.drain();
  }
  /**
   * Runs the fan-out and the first attempt of every ask; one ask (whichever Slack gets second, after the parent
   * message) fails and waits for its retry. Returns who was asked and who was not (yet).
   */
  async function askAllButOne(run: Run, people: string[]) {
    t.fake.fail("chat.postMessage", { delayMs: 0 }); // the parent message
    t.fake.fail("chat.postMessage", { error: "internal_error" });
    await t.deps.queue.drain({ maxRounds: 1 });
    const asked = people.filter((u) => run.dms(u).length === 1);
    const notAsked = people.filter((u) => run.dms(u).length === 0);
    expect(asked).toHaveLength(people.length - 1);
    expect(notAsked).toHaveLength(1);
    return { asked, notAsked: notAsked[0]! };
  }
  /** Each DM a member got, by kind. */
  const kinds = (run: Run, u: string) =>
    run
      .dms(u)
      .map((m) =>
        m.text.startsWith("Time for standup")
          ? "ask"
          : m.text.startsWith("Reminder:")
            ? "reminder"
            : m.text.startsWith("Thanks!")
              ? "confirmation"
              : m.text,
      );
  const summaries = (run: Run) => t.fake.messages(run.channelId).filter((m) => m.text.startsWith("Standup closed"));
  const setActive = (run: Run, active: boolean) => updateSchedule(t.deps, run.teamId, run.scheduleId, { active });
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
    // Their asks never went out: they are not asked after all.
    expect(await run.statuses()).toEqual({ U0STPB1: "pending", U0STPB2: "pending" });

    await remindAndClose(run, false);

    expect(run.posts()).toHaveLength(1);
    expect(run.dms("U0STPB1")).toEqual([]);
    expect(run.dms("U0STPB2")).toEqual([]);
    expect((await run.jobs()).every((j) => j.state === "completed" && j.retry_count === 0)).toBe(true);
    // Nobody to remind, and no summary: nobody was asked.
    // Both asks were in one chunk (ask-batch.ts), which ended once.
    expect(run.ended()).toEqual([{ job: "standup.asks", standing: "deleted", level: 30 }]);
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

  it("paused before its fan-out and resumed the same day: nobody was asked, so no reminder, parent message or summary", async () => {
    const run = await claimedRun(["U0STPE1", "U0STPE2"]);
    await pause(run.scheduleId);
    await t.deps.queue.drain();
    t.clock.set(`${run.day}T10:00:00Z`);
    await setActive(run, true);

    await remindAndClose(run, false);

    expect(run.posts()).toEqual([]);
    expect(await run.statuses()).toEqual({});
  });

  it("paused while its asks went out and resumed the same day: only those asked are reminded and named in the summary", async () => {
    const people = ["U0STPF1", "U0STPF2", "U0STPF3"];
    const run = await claimedRun(people);
    const { asked, notAsked } = await askAllButOne(run, people);
    await setActive(run, false);
    // The failed ask's retry finds the standup paused.
    await t.deps.queue.drain();
    expect(run.dms(notAsked)).toEqual([]);
    expect((await run.statuses())[notAsked]).toBe("pending");
    t.clock.set(`${run.day}T10:00:00Z`);
    await setActive(run, true);
    const answered = await submitResponse(t.deps, {
      teamId: run.teamId,
      runId: run.runId,
      userId: asked[0]!,
      answers: ["Shipped it", "Ship more", "none"],
      mood: null,
    });
    expect(answered.ok).toBe(true);
    const home = async (u: string) => JSON.stringify((await buildHomeView(t.deps, run.teamId, u)).blocks);
    expect(await home(notAsked)).toContain("Today: not asked today");
    expect(await home(asked[1]!)).toContain("Today: :hourglass_flowing_sand: waiting for your answer");
    // The dashboard's today view agrees: two asked, the third not asked.
    const today = await getToday(t.deps, run.teamId);
    expect(today.standups).toHaveLength(1);
    const [standup] = today.standups;
    expect(standup).toMatchObject({ date: run.day, asked: 2, answered: 1 });
    expect(standup!.not_answered.map((p) => [p.user_id, p.status])).toEqual(
      [
        [asked[1]!, "waiting"],
        [notAsked, "not_asked"],
      ].sort(),
    );

    await remindAndClose(run, true);

    expect(kinds(run, notAsked)).toEqual([]);
    expect(kinds(run, asked[0]!)).toEqual(["ask", "confirmation"]);
    expect(kinds(run, asked[1]!)).toEqual(["ask", "reminder"]);
    const [summary] = summaries(run);
    expect(summaries(run)).toHaveLength(1);
    expect(summary!.text).toBe("Standup closed: 1/2 answered (50%)");
    expect(JSON.stringify(summary!.blocks)).toContain(asked[1]!);
    expect(JSON.stringify(summary!.blocks)).not.toContain(notAsked);
  });

  it("uninstalled while its asks went out and reinstalled the same day: only those asked are reminded and named in the summary", async () => {
    const people = ["U0STPG1", "U0STPG2"];
    const run = await claimedRun(people);
    const { asked, notAsked } = await askAllButOne(run, people);
    expect((await t.sendEvent(run.teamId, { type: "app_uninstalled" })).statusCode).toBe(200);
    await expect.poll(() => runStanding(t.deps.db, run.teamId, run.runId)).toBe("uninstalled");
    // The failed ask's retry finds the workspace gone.
    await t.deps.queue.drain();
    expect((await run.statuses())[notAsked]).toBe("pending");
    t.clock.set(`${run.day}T10:00:00Z`);
    await reinstallTeam(t, run.teamId);

    await remindAndClose(run, true);

    expect(kinds(run, notAsked)).toEqual([]);
    expect(kinds(run, asked[0]!)).toEqual(["ask", "reminder"]);
    const [summary] = summaries(run);
    expect(summaries(run)).toHaveLength(1);
    expect(summary!.text).toBe("Standup closed: 0/1 answered (0%)");
    expect(JSON.stringify(summary!.blocks)).toContain(asked[0]!);
    expect(JSON.stringify(summary!.blocks)).not.toContain(notAsked);
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
