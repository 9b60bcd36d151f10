import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { findInstallation } from "../../chat/installations.repo.ts";
import { rows } from "../../db/client.ts";
import {
  maintenanceDue,
  maintenanceJob,
  maintenanceTick,
  PRUNE_BATCH,
  PRUNE_STEPS,
  runMaintenance,
} from "./maintenance.ts";

const TEAM = "T0MAINT";
const OTHER = "T0MAINO";
const MIN = 60_000;
const DAY = 86_400_000;

describe("the daily maintenance (retention)", async () => {
  const t = await useTestApp();
  await t.installTeam(TEAM);
  await t.installTeam(OTHER);
  await t.addMember(TEAM, "U0MAINA");

  const count = async (from: string, where = sql`true`) => {
    const [r] = await rows<{ n: number | string }>(
      t.deps.db,
      sql`select count(*) as n from ${sql.identifier(from)} where ${where}`,
    );
    return Number(r?.n);
  };
  const keys = async (query: ReturnType<typeof sql>) => (await rows<{ k: string }>(t.deps.db, query)).map((r) => r.k);

  it("deletes each table's rows just past their cutoff, in batches, and keeps the ones just inside", async () => {
    t.clock.set("2026-06-15T04:00:00Z");
    const now = t.clock.now().getTime();
    const at = (msAgo: number) => new Date(now - msAgo).toISOString();
    const db = t.deps.db;
    // Slack's event ids: a week.
    for (let i = 0; i < 5; i++) {
      await db.execute(sql`insert into chat_events (event_id, team_id, received_at)
        values (${`EvOld${i}`}, ${TEAM}, ${at(7 * DAY + MIN)})`);
    }
    await db.execute(sql`insert into chat_events (event_id, team_id, received_at)
      values ('EvNew', ${TEAM}, ${at(7 * DAY - MIN)}), ('EvNow', ${TEAM}, ${at(0)})`);
    // Deliveries that could not be processed: 30 days (admins are shown them).
    await db.execute(sql`insert into chat_events (event_id, team_id, received_at, state)
      values ('EvFailedOld', ${TEAM}, ${at(30 * DAY + MIN)}, 'failed'), ('EvFailedKept', ${TEAM}, ${at(7 * DAY + MIN)}, 'failed')`);
    // Sessions and nonces: until they expire.
    await db.execute(sql`insert into sessions (id_hash, team_id, user_id, created_at, expires_at)
      values ('s-expired', ${TEAM}, 'U0MAINA', ${at(30 * DAY)}, ${at(1000)}),
             ('s-live', ${TEAM}, 'U0MAINA', ${at(30 * DAY)}, ${at(-1000)})`);
    await db.execute(sql`insert into used_nonces (nonce, kind, used_at, expires_at)
      values ('login:expired', 'login', ${at(10 * MIN)}, ${at(1000)}),
             ('login:live', 'login', ${at(MIN)}, ${at(-1000)}),
             ('oauth:expired', 'oauth', ${at(DAY)}, ${at(DAY - 600_000)})`);
    await db.execute(sql`insert into rate_limits (bucket, window_start, count)
      values ('signin:old', ${at(DAY + MIN)}, 3), ('signin:now', ${at(MIN)}, 1)`);
    // Slack rate buckets: idle a day (full again).
    await db.execute(sql`insert into chat_rate_buckets (team_id, bucket, interval_ms, burst, tat, granted, wait_ms, updated_at)
      values (${TEAM}, 'conversations.open', 1200, 50, ${at(DAY + MIN)}, true, 0, ${at(DAY + MIN)}),
             (${TEAM}, 'chat.postMessage', 200, 60, ${at(MIN)}, true, 0, ${at(MIN)})`);
    // Post-once claims: settled ones 30 days; in-flight ones (sending, unknown) 90 days.
    await db.execute(sql`insert into chat_posts (key, team_id, channel, state, ts, attempts, updated_at)
      values ('old-sent', ${TEAM}, 'C1', 'sent', '1.1', 1, ${at(30 * DAY + MIN)}),
             ('old-failed', ${TEAM}, 'C1', 'failed', null, 3, ${at(30 * DAY + MIN)}),
             ('new-sent', ${TEAM}, 'C1', 'sent', '1.2', 1, ${at(30 * DAY - MIN)}),
             ('old-sending', ${TEAM}, 'C1', 'sending', null, 1, ${at(60 * DAY)}),
             ('old-unknown', ${TEAM}, 'C1', 'unknown', null, 2, ${at(60 * DAY)}),
             ('dead-sending', ${TEAM}, 'C1', 'sending', null, 1, ${at(90 * DAY + MIN)})`);
    // Webhook deliveries: finished ones 30 days; a pending one (a retry scheduled) however old.
    await db.execute(sql`insert into webhook_deliveries (team_id, endpoint_id, message_id, type, status, attempts, created_at, next_attempt_at, payload)
      values (${TEAM}, 1, 'msg_old_ok', 'standup.submitted', 'delivered', 1, ${at(30 * DAY + MIN)}, null, null),
             (${TEAM}, 1, 'msg_old_failed', 'standup.submitted', 'failed', 10, ${at(30 * DAY + MIN)}, null, null),
             (${TEAM}, 1, 'msg_new_ok', 'standup.submitted', 'delivered', 1, ${at(30 * DAY - MIN)}, null, null),
             (${TEAM}, 1, 'msg_old_pending', 'standup.submitted', 'pending', 9, ${at(40 * DAY)}, ${at(-DAY)}, '{}')`);
    // Rule firings: 90 days, in every workspace.
    await db.execute(sql`insert into rule_firings (team_id, rule_id, run_id, created_at)
      values (${TEAM}, 1, 900001, ${at(90 * DAY + MIN)}), (${OTHER}, 2, 900002, ${at(120 * DAY)}),
             (${TEAM}, 1, 900003, ${at(90 * DAY - MIN)})`);
    // Time off: ranges that ended more than a year (366 days, and a day for timezones) ago: before 2025-06-13.
    await db.execute(sql`insert into time_off (team_id, user_id, start_date, end_date, created_by, created_at, updated_at)
      values (${TEAM}, 'U0MAINA', '2025-06-01', '2025-06-12', 'U0MAINA', ${at(400 * DAY)}, ${at(400 * DAY)}),
             (${TEAM}, 'U0MAINA', '2025-06-13', '2025-06-13', 'U0MAINA', ${at(400 * DAY)}, ${at(400 * DAY)}),
             (${OTHER}, 'U0MAINB', '2025-05-01', '2025-05-13', 'U0MAINB', ${at(400 * DAY)}, ${at(400 * DAY)})`);
    // Holidays: 400 days back; future ones stay.
    await db.execute(sql`insert into holidays (team_id, date, name)
      values (${TEAM}, '2025-05-10', 'gone'), (${TEAM}, '2025-05-11', 'kept'), (${TEAM}, '2026-12-25', 'future')`);
    // The run log: 90 days.
    await db.execute(sql`insert into maintenance_runs (day, claimed_at)
      values ('2026-03-16', ${at(91 * DAY)}), ('2026-03-18', ${at(89 * DAY)})`);
    // The product's data, however old: answers, kudos, profiles.
    const scheduleId = await createSchedule(db, t.clock, { teamId: TEAM, channelId: "C0MAINT", time: "09:00" });
    await seedRun(db, {
      teamId: TEAM,
      scheduleId,
      date: "2023-01-02",
      asked: ["U0MAINA"],
      answers: { U0MAINA: { answers: ["a", "b", "c"] } },
    });
    await db.execute(sql`insert into kudos (team_id, from_user, to_user, message, channel_id, source, source_key, given_on, created_at)
      values (${TEAM}, 'U0MAINB', 'U0MAINA', 'thanks', 'C0MAINT', 'command', 'cmd:old', '2023-01-02', '2023-01-02T10:00:00Z')`);
    await db.execute(sql`insert into profiles (team_id, user_id, role, updated_at)
      values (${TEAM}, 'U0MAINA', 'Engineer', '2023-01-02T10:00:00Z')`);
    const product = async () => ({
      responses: await count("responses"),
      runs: await count("standup_runs"),
      participants: await count("run_participants"),
      kudos: await count("kudos"),
      profiles: await count("profiles"),
    });
    const before = await product();
    expect(before).toEqual({ responses: 1, runs: 1, participants: 1, kudos: 1, profiles: 1 });

    const result = await runMaintenance(t.deps, t.clock.now(), { batch: 2 });

    expect(result.failed).toEqual([]);
    // Both workspaces are installed: the orphan sweep finds nothing.
    const orphans = Object.entries(result.pruned).filter(([name]) => name.startsWith("orphans:"));
    expect(orphans.length).toBeGreaterThan(20);
    expect(orphans.filter(([, n]) => n !== 0)).toEqual([]);
    expect(Object.fromEntries(Object.entries(result.pruned).filter(([name]) => !name.startsWith("orphans:")))).toEqual({
      chat_events: 6,
      sessions: 1,
      used_nonces: 2,
      rate_limits: 1,
      chat_rate_buckets: 1,
      chat_posts: 3,
      webhook_deliveries: 2,
      rule_firings: 2,
      time_off: 2,
      holidays: 1,
      maintenance_runs: 1,
      dm_questions: 0,
      dm_turns: 0,
      early_answers: 0,
      oauth_tokens: 0,
      oauth_requests: 0,
      oauth_grants: 0,
      oauth_clients: 0,
    });
    expect(await keys(sql`select event_id as k from chat_events order by 1`)).toEqual([
      "EvFailedKept",
      "EvNew",
      "EvNow",
    ]);
    expect(await keys(sql`select id_hash as k from sessions where team_id = ${TEAM} order by 1`)).toEqual(["s-live"]);
    expect(await keys(sql`select nonce as k from used_nonces order by 1`)).toEqual(["login:live"]);
    expect(await keys(sql`select bucket as k from rate_limits order by 1`)).toEqual(["signin:now"]);
    expect(await keys(sql`select bucket as k from chat_rate_buckets order by 1`)).toEqual(["chat.postMessage"]);
    expect(await keys(sql`select key as k from chat_posts order by 1`)).toEqual([
      "new-sent",
      "old-sending",
      "old-unknown",
    ]);
    expect(await keys(sql`select message_id as k from webhook_deliveries order by 1`)).toEqual([
      "msg_new_ok",
      "msg_old_pending",
    ]);
    expect(await keys(sql`select run_id::text as k from rule_firings order by 1`)).toEqual(["900003"]);
    expect(await keys(sql`select end_date::text as k from time_off order by 1`)).toEqual(["2025-06-13"]);
    expect(await keys(sql`select date::text as k from holidays where team_id = ${TEAM} order by 1`)).toEqual([
      "2025-05-11",
      "2026-12-25",
    ]);
    expect(await keys(sql`select day::text as k from maintenance_runs order by 1`)).toEqual(["2026-03-18"]);
    expect(await product()).toEqual(before);

    // A second run finds nothing more.
    const again = await runMaintenance(t.deps, t.clock.now());
    expect(Object.values(again.pruned).every((n) => n === 0)).toBe(true);
  });

  it("deletes a big backlog in bounded batches until none is left", async () => {
    const now = t.clock.now().getTime();
    await t.deps.db.execute(sql`insert into chat_events (event_id, team_id, received_at)
      select 'EvBulk' || n, ${TEAM}, ${new Date(now - 8 * DAY).toISOString()}::timestamptz from generate_series(1, 2500) as n`);
    const step = PRUNE_STEPS.find((s) => s.name === "chat_events")!;
    const result = await runMaintenance(t.deps, t.clock.now(), { batch: 1000, steps: [step] });
    expect(result.pruned).toEqual({ chat_events: 2500 });
    expect(await count("chat_events", sql`event_id like 'EvBulk%'`)).toBe(0);
    expect(PRUNE_BATCH).toBe(5_000);
  });

  it("a Slack retry of an event, an hour later and after the prune, is still refused as a duplicate", async () => {
    const publishes = () => t.fake.callsTo("views.publish").length;
    const before = publishes();
    const event = { type: "app_home_opened", user: "U0MAINA", channel: "D0MAINT", tab: "home" };
    expect((await t.sendEvent(TEAM, event, { eventId: "EvRetried" })).statusCode).toBe(200);
    await t.app.settle();
    await t.fake.waitFor(() => publishes() === before + 1);
    t.clock.advance(59 * MIN);
    await runMaintenance(t.deps, t.clock.now());
    expect((await t.sendEvent(TEAM, event, { eventId: "EvRetried", retryNum: 3 })).statusCode).toBe(200);
    await t.app.settle();
    expect(publishes()).toBe(before + 1);
    expect(await count("chat_events", sql`event_id = 'EvRetried'`)).toBe(1);
  });

  it("a failing step is logged and the others still run; the job records it and fails so the queue retries", async () => {
    await t.deps.db.execute(sql`insert into sessions (id_hash, team_id, user_id, created_at, expires_at)
      values ('s-gone', ${TEAM}, 'U0MAINA', ${t.clock.now().toISOString()}, ${new Date(t.clock.now().getTime() - 1).toISOString()})`);
    const broken = { name: "broken", table: "no_such_table", where: () => sql`true` };
    const sessions = PRUNE_STEPS.find((s) => s.name === "sessions")!;
    const result = await runMaintenance(t.deps, t.clock.now(), { steps: [broken, sessions] });
    expect(result).toEqual({ pruned: { sessions: 1 }, failed: ["broken"] });

    await t.deps.db.execute(
      sql`insert into maintenance_runs (day, claimed_at) values ('2026-06-16', ${t.clock.now().toISOString()})`,
    );
    await expect(maintenanceJob(t.deps, "2026-06-16", [broken, sessions])).rejects.toThrow("prune failed: broken");
    const [run] = await rows<{ outcome: string }>(
      t.deps.db,
      sql`select outcome from maintenance_runs where day = '2026-06-16'`,
    );
    expect(run?.outcome).toBe("failed");
  });

  it("the job records its counts and outcome on the day's row", async () => {
    t.clock.set("2026-06-20T03:30:00Z");
    await t.deps.db.execute(
      sql`insert into maintenance_runs (day, claimed_at) values ('2026-06-20', ${t.clock.now().toISOString()})`,
    );
    await t.deps.db.execute(sql`insert into chat_events (event_id, team_id, received_at)
      values ('EvJob', ${TEAM}, '2026-06-01T00:00:00Z')`);
    await maintenanceJob(t.deps, "2026-06-20");
    const [run] = await rows<{ outcome: string; finished: boolean; pruned: Record<string, number> }>(
      t.deps.db,
      sql`select outcome, finished_at is not null as finished, pruned from maintenance_runs where day = '2026-06-20'`,
    );
    expect(run?.outcome).toBe("ok");
    expect(run?.finished).toBe(true);
    expect(run?.pruned.chat_events).toBe(1);
    const names = Object.keys(run?.pruned ?? {});
    expect(names.filter((n) => !n.startsWith("orphans:")).sort()).toEqual(PRUNE_STEPS.map((s) => s.name).sort());
    expect(names).toContain("orphans:members");
  });

  it("sweeps rows a write left behind for a workspace whose data was deleted; an uninstalled one keeps its data", async () => {
    const GONE = "T0MAINTGONE";
    const UNINSTALLED = "T0MAINTUNIN";
    await t.installTeam(UNINSTALLED);
    expect((await t.sendEvent(UNINSTALLED, { type: "app_uninstalled" })).statusCode).toBe(200);
    await vi.waitFor(async () =>
      expect((await findInstallation(t.deps.db, UNINSTALLED))?.uninstalledAt).toBeInstanceOf(Date),
    );
    for (const team of [GONE, UNINSTALLED]) {
      await t.deps.db.execute(sql`insert into members (team_id, user_id, real_name, display_name, email, tz, active, role, created_at, updated_at)
        values (${team}, 'U0LEFTOVER', 'Left Over', 'left', 'left@x.test', 'UTC', true, 'member', now(), now())`);
      await t.deps.db.execute(sql`insert into member_syncs (team_id, state)
        values (${team}, 'idle') on conflict do nothing`);
      await t.deps.db.execute(
        sql`insert into chat_events (event_id, team_id, received_at) values (${`Ev${team}`}, ${team}, now())`,
      );
    }
    const result = await runMaintenance(t.deps, t.clock.now());
    expect(result.failed).toEqual([]);
    expect(result.pruned["orphans:members"]).toBe(1);
    const left = (table: string, team: string) =>
      rows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from ${sql.identifier(table)} where team_id = ${team}`,
      );
    expect((await left("members", GONE))[0]?.n).toBe(0);
    expect((await left("member_syncs", GONE))[0]?.n).toBe(0);
    // Event ids stay for their 7 days (one may arrive a moment before its installation is stored).
    expect((await left("chat_events", GONE))[0]?.n).toBe(1);
    expect((await left("members", UNINSTALLED))[0]?.n).toBeGreaterThanOrEqual(1);
    expect((await left("members", TEAM))[0]?.n).toBeGreaterThanOrEqual(1);
  });

  it("runs once a day from 03:00 UTC: concurrent ticks claim it once, and the queued job prunes", async () => {
    expect(maintenanceDue(new Date("2026-07-01T02:59:59Z"))).toBeUndefined();
    expect(maintenanceDue(new Date("2026-07-01T03:00:00Z"))).toBe("2026-07-01");
    t.clock.set("2026-07-01T02:59:59Z");
    expect(await maintenanceTick(t.deps)).toBe(false);
    expect(await count("maintenance_runs", sql`day = '2026-07-01'`)).toBe(0);

    t.clock.set("2026-07-01T03:00:01Z");
    await t.deps.db.execute(sql`insert into chat_events (event_id, team_id, received_at)
      values ('EvTick', ${TEAM}, '2026-06-01T00:00:00Z')`);
    const claims = await Promise.all([1, 2, 3, 4].map(() => maintenanceTick(t.deps)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await t.deps.queue.drain()).toBe(1);
    expect(await count("chat_events", sql`event_id = 'EvTick'`)).toBe(0);
    const [run] = await rows<{ outcome: string }>(
      t.deps.db,
      sql`select outcome from maintenance_runs where day = '2026-07-01'`,
    );
    expect(run?.outcome).toBe("ok");

    // Later the same day: nothing more. The next day: one more run.
    t.clock.set("2026-07-01T23:00:00Z");
    expect(await maintenanceTick(t.deps)).toBe(false);
    t.clock.set("2026-07-02T03:00:01Z");
    expect(await maintenanceTick(t.deps)).toBe(true);
    expect(await t.deps.queue.drain()).toBe(1);
  });
});
