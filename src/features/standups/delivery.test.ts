import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { ageUnknownClaims, drainAgingClaims } from "../../../test/support/claims.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { tick } from "./scheduler.ts";

/** Slack failing under the jobs: every DM still arrives exactly once. */
describe("delivery when Slack fails", async () => {
  const t = await useTestApp();
  let n = 0;

  async function startRun(people: string[]): Promise<{ teamId: string; runId: number; dms: (u: string) => number }> {
    n += 1;
    const teamId = `T0DLV${n}`;
    // Only this case's schedule may run, so the injected faults hit its messages.
    await t.deps.db.execute(sql`update schedules set active = false`);
    await t.installTeam(teamId);
    for (const u of people) {
      t.fake.addUser(teamId, { id: u, name: u.toLowerCase(), real_name: u });
      await t.addMember(teamId, u);
    }
    // The bot is in the channel, as it must be to post there.
    t.fake.addChannel(teamId, { id: `C0DLV${n}`, name: `dlv${n}`, members: [...people, `B${teamId.slice(1)}BOT`] });
    await createSchedule(t.deps.db, t.clock, {
      teamId,
      channelId: `C0DLV${n}`,
      time: "09:00",
      tz: "UTC",
      days: "mon,tue,wed,thu,fri,sat,sun",
    });
    t.clock.set(`2026-04-${String(n).padStart(2, "0")}T09:00:05Z`);
    const started = await tick(t.deps);
    expect(started.started.length).toBeGreaterThan(0);
    const dms = (u: string) =>
      t.fake.messages(t.fake.dmFor(teamId, u)).filter((m) => m.text.startsWith("Time for standup")).length;
    const [run] = await rows<{ id: number }>(t.deps.db, sql`select id from standup_runs where team_id = ${teamId}`);
    return { teamId, runId: run!.id, dms };
  }

  it("429 with Retry-After on chat.postMessage: the job retries and each DM arrives once", async () => {
    t.fake.fail("chat.postMessage", { status: 429, retryAfter: 0 }, 3);
    const run = await startRun(["U0A1", "U0A2", "U0A3"]);
    await t.deps.queue.drain();
    expect(t.fake.callsTo("chat.postMessage").filter((c) => c.faulted).length).toBe(3);
    for (const u of ["U0A1", "U0A2", "U0A3"]) expect(run.dms(u), u).toBe(1);
  });

  it("HTTP 500 on chat.postMessage: retried, found not posted, posted once", async () => {
    t.fake.reset();
    t.fake.fail("chat.postMessage", { status: 500 }, 4);
    const run = await startRun(["U0B1", "U0B2"]);
    await drainAgingClaims(t.deps);
    for (const u of ["U0B1", "U0B2"]) expect(run.dms(u), u).toBe(1);
  });

  it("a dropped connection (nothing reached Slack) is retried, checked and posted once", async () => {
    t.fake.reset();
    t.fake.fail("chat.postMessage", { drop: true }, 2);
    const run = await startRun(["U0C1", "U0C2"]);
    await drainAgingClaims(t.deps);
    for (const u of ["U0C1", "U0C2"]) expect(run.dms(u), u).toBe(1);
    expect(t.fake.messages(`C0DLV${n}`).filter((m) => !m.thread_ts)).toHaveLength(1);
    const retried = await rows<{ attempts: number }>(
      t.deps.db,
      sql`select attempts from chat_posts where team_id = ${run.teamId} and attempts > 1`,
    );
    expect(retried.length).toBeGreaterThan(0);
  });

  it("a message Slack stored before the connection dropped is found by its metadata, not posted again", async () => {
    t.fake.reset();
    const run = await startRun(["U0D1"]);
    // The message reached Slack carrying our key, but the answer was lost: our claim says "unknown".
    const key = `run:${run.runId}:ask:U0D1`;
    const channel = t.fake.dmFor(run.teamId, "U0D1");
    const token = `xoxb-${run.teamId.toLowerCase()}-token`;
    const posted = await fetch(`${t.fake.url}chat.postMessage`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        channel,
        text: "Time for standup (sent before the drop)",
        metadata: { event_type: "upbeat_post", event_payload: { post_key: key } },
      }),
    });
    expect(((await posted.json()) as { ok: boolean }).ok).toBe(true);
    await t.deps.db.execute(
      sql`insert into chat_posts (key, team_id, channel, state, attempts, updated_at) values (${key}, ${run.teamId}, ${channel}, 'unknown', 1, now())`,
    );
    await ageUnknownClaims(t.deps);
    await t.deps.queue.drain();
    expect(run.dms("U0D1")).toBe(1);
    const [claim] = await rows<{ state: string; ts: string }>(
      t.deps.db,
      sql`select state, ts from chat_posts where key = ${key}`,
    );
    expect(claim!.state).toBe("sent");
  });

  it("an ask Slack refuses for good: that member is not reminded, and the summary does not name them", async () => {
    t.fake.reset();
    t.fake.fail("chat.postMessage", { delayMs: 0 }); // the parent message
    t.fake.fail("chat.postMessage", { error: "invalid_blocks" }); // one of the asks: the job gives up
    const people = ["U0F1", "U0F2"];
    const run = await startRun(people);
    await t.deps.queue.drain();
    const refused = people.find((u) => run.dms(u) === 0)!;
    const asked = people.find((u) => run.dms(u) === 1)!;
    expect(refused).toBeDefined();
    expect(asked).toBeDefined();

    const day = t.clock.now().toISOString().slice(0, 10);
    t.clock.set(`${day}T11:00:10Z`);
    await tick(t.deps);
    await t.deps.queue.drain();
    t.clock.set(`${day}T23:59:59Z`);
    t.clock.advance(15_000);
    await tick(t.deps);
    await t.deps.queue.drain();

    const dmTexts = (u: string) => t.fake.messages(t.fake.dmFor(run.teamId, u)).map((m) => m.text);
    expect(dmTexts(refused)).toEqual([]);
    expect(dmTexts(asked)).toEqual([expect.stringMatching(/^Time for standup/), expect.stringMatching(/^Reminder:/)]);
    const summaries = t.fake.messages(`C0DLV${n}`).filter((m) => m.text.startsWith("Standup closed"));
    expect(summaries.map((m) => m.text)).toEqual(["Standup closed: 0/1 answered (0%)"]);
    expect(JSON.stringify(summaries[0]!.blocks)).toContain(asked);
    expect(JSON.stringify(summaries[0]!.blocks)).not.toContain(refused);
  });

  it("a revoked installation stops its run: no DMs, the jobs end without retrying", async () => {
    t.fake.reset();
    const run = await startRun(["U0E1", "U0E2"]);
    await t.sendEvent(run.teamId, { type: "tokens_revoked", tokens: { bot: ["B"] } });
    await expect
      .poll(
        async () =>
          (
            await rows(
              t.deps.db,
              sql`select 1 from installations where team_id = ${run.teamId} and uninstalled_at is not null`,
            )
          ).length,
      )
      .toBe(1);
    await t.deps.queue.drain();
    expect(run.dms("U0E1") + run.dms("U0E2")).toBe(0);
    expect(t.fake.callsTo("chat.postMessage").filter((c) => c.teamId === run.teamId)).toHaveLength(0);
    const failed = await rows(
      t.deps.db,
      sql`select 1 from pgboss.job where state in ('retry', 'failed') and data->>'teamId' = ${run.teamId}`,
    );
    expect(failed).toHaveLength(0);
  });
});
