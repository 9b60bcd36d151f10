import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { rows } from "../../src/db/client.ts";
import { tick } from "../../src/features/standups/index.ts";
import type { TestApp } from "./app.ts";
import { createSchedule } from "./factories.ts";

let n = 0;

/**
 * For the chunked asks' tests (ask-batch*.test.ts): a workspace of its own with `size` members in one channel, its run
 * claimed by a tick at 09:00:05 on a day of its own (only this schedule active), with helpers to read what happened.
 * `prefix` (a letter or two per test file) keeps the workspaces of different files apart.
 */
export async function claimedRun(t: TestApp, size: number, prefix: string) {
  n += 1;
  const tag = `${prefix}${n}`;
  const teamId = `T0AB${tag}`;
  await t.deps.db.execute(sql`update schedules set active = false`);
  const people = Array.from({ length: size }, (_, i) => `U0AB${tag}X${String(i).padStart(3, "0")}`);
  await t.installTeam(teamId);
  for (const u of people) {
    t.fake.addUser(teamId, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(teamId, u);
  }
  const channelId = `C0AB${tag}`;
  t.fake.addChannel(teamId, {
    id: channelId,
    name: `ab${tag.toLowerCase()}`,
    members: [...people, `B${teamId.slice(1)}BOT`],
  });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId,
    channelId,
    time: "09:00",
    tz: "UTC",
    days: "mon,tue,wed,thu,fri,sat,sun",
  });
  const day = new Date(Date.UTC(2026, 5, 1) + (n - 1) * 86_400_000).toISOString().slice(0, 10);
  t.clock.set(`${day}T09:00:05Z`);
  const [runId] = (await tick(t.deps)).started;
  expect(runId).toBeDefined();
  const askOf = (u: string) =>
    t.fake.messages(t.fake.dmFor(teamId, u)).filter((m) => m.text.startsWith("Time for standup"));
  return {
    teamId,
    channelId,
    scheduleId,
    runId: runId!,
    people,
    askOf,
    asks: (u: string) => askOf(u).length,
    participants: () =>
      rows<{ user_id: string; status: string; dm_channel: string | null; asked_at: unknown; remind_at: unknown }>(
        t.deps.db,
        sql`select user_id, status, dm_channel, asked_at, remind_at from run_participants where run_id = ${runId!}
            order by user_id`,
      ),
    jobs: () =>
      rows<{ name: string; state: string; retry_count: number; data: { userIds?: string[]; userId?: string } }>(
        t.deps.db,
        sql`select name, state::text as state, retry_count, data from pgboss.job
            where name in ('standup.asks', 'standup.ask') and data->>'teamId' = ${teamId} order by created_on`,
      ),
    /** The workspace's bucket for `bucket` holds `aheadSeconds` of calls already (a full burst is 10 s). */
    fillBucket: (bucket: string, intervalMs: number, aheadSeconds: number) =>
      t.deps.db.execute(
        sql`insert into chat_rate_buckets (team_id, bucket, interval_ms, burst, tat, granted, wait_ms, updated_at)
            values (${teamId}, ${bucket}, ${intervalMs}, 100, now() + make_interval(secs => ${aheadSeconds}), true, 0, now())
            on conflict (team_id, bucket) do update set tat = excluded.tat, paused_until = null`,
      ),
  };
}
