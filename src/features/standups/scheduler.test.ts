import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { addHoliday, createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { tick } from "./scheduler.ts";

const ALL_DAYS = "mon,tue,wed,thu,fri,sat,sun";

describe("the scheduler on an injected clock", async () => {
  const t = await useTestApp();
  let n = 0;
  /** Each case gets its own workspace, so runs of one never mask another. */
  async function scheduleIn(time: string, tz: string, days = ALL_DAYS): Promise<{ teamId: string; id: string }> {
    n += 1;
    const teamId = `T0SCH${n}`;
    await t.installTeam(teamId);
    const id = await createSchedule(t.deps.db, t.clock, { teamId, channelId: `C0SCH${n}`, time, tz, days });
    return { teamId, id };
  }
  const runsOf = (scheduleId: string) =>
    rows<{ local_date: string; status: string; starts_at: Date }>(
      t.deps.db,
      sql`select local_date::text as local_date, status, starts_at from standup_runs where schedule_id = ${scheduleId} order by starts_at`,
    );
  /** Ticks at each instant (UTC) and returns the run rows. */
  async function tickAt(scheduleId: string, instants: string[]) {
    for (const at of instants) {
      t.clock.set(at);
      await tick(t.deps);
    }
    return runsOf(scheduleId);
  }

  it("a 02:30 New York schedule on the spring-forward day runs once, at 03:00 EDT", async () => {
    const s = await scheduleIn("02:30", "America/New_York");
    const runs = await tickAt(s.id, [
      "2026-03-08T06:59:30Z",
      "2026-03-08T07:00:00Z",
      "2026-03-08T07:00:30Z",
      "2026-03-08T07:30:00Z",
      "2026-03-08T08:30:00Z",
    ]);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.local_date).toBe("2026-03-08");
    expect(new Date(runs[0]!.starts_at).toISOString()).toBe("2026-03-08T07:00:00.000Z");
  });

  it("a 01:30 New York schedule on the fall-back day runs once, at the first 01:30", async () => {
    const s = await scheduleIn("01:30", "America/New_York");
    const runs = await tickAt(s.id, [
      "2026-11-01T05:29:30Z",
      "2026-11-01T05:30:00Z",
      "2026-11-01T06:00:00Z",
      "2026-11-01T06:30:00Z",
      "2026-11-01T06:31:00Z",
    ]);
    expect(runs).toHaveLength(1);
    expect(new Date(runs[0]!.starts_at).toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  it("Europe/Berlin: the gap runs at 03:00 CEST, the repeated hour once", async () => {
    const spring = await scheduleIn("02:30", "Europe/Berlin");
    const a = await tickAt(spring.id, ["2026-03-29T00:59:30Z", "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z"]);
    expect(a.map((r) => new Date(r.starts_at).toISOString())).toEqual(["2026-03-29T01:00:00.000Z"]);
    const fall = await scheduleIn("02:30", "Europe/Berlin");
    const b = await tickAt(fall.id, ["2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z"]);
    expect(b.map((r) => new Date(r.starts_at).toISOString())).toEqual(["2026-10-25T00:30:00.000Z"]);
  });

  it("Asia/Kathmandu (+05:45): 09:00 local is 03:15 UTC", async () => {
    const s = await scheduleIn("09:00", "Asia/Kathmandu");
    const runs = await tickAt(s.id, ["2026-03-02T03:14:30Z", "2026-03-02T03:15:00Z"]);
    expect(runs.map((r) => new Date(r.starts_at).toISOString())).toEqual(["2026-03-02T03:15:00.000Z"]);
  });

  it("Australia/Lord_Howe (30-minute DST): 02:15 on the change day runs at 02:30 local", async () => {
    // 2026-10-04 02:00 LHST (+10:30) becomes 02:30 LHDT (+11:00): 02:30 LHDT is 15:30 UTC the day before.
    const s = await scheduleIn("02:15", "Australia/Lord_Howe");
    const runs = await tickAt(s.id, ["2026-10-03T15:29:30Z", "2026-10-03T15:30:00Z", "2026-10-03T16:00:00Z"]);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.local_date).toBe("2026-10-04");
    expect(new Date(runs[0]!.starts_at).toISOString()).toBe("2026-10-03T15:30:00.000Z");
  });

  it("runs only on listed weekdays", async () => {
    const s = await scheduleIn("09:00", "UTC", "mon,wed,fri");
    const runs = await tickAt(s.id, [
      "2026-03-02T09:00:10Z",
      "2026-03-03T09:00:10Z",
      "2026-03-04T09:00:10Z",
      "2026-03-07T09:00:10Z",
    ]);
    expect(runs.map((r) => r.local_date)).toEqual(["2026-03-02", "2026-03-04"]);
  });

  it("skips workspace holidays", async () => {
    const s = await scheduleIn("09:00", "UTC");
    await addHoliday(t.deps.db, s.teamId, "2026-03-03", "Founders' day");
    const runs = await tickAt(s.id, ["2026-03-02T09:00:10Z", "2026-03-03T09:00:10Z", "2026-03-04T09:00:10Z"]);
    expect(runs.map((r) => r.local_date)).toEqual(["2026-03-02", "2026-03-04"]);
  });

  it("after downtime a run 2 h 59 min late still starts", async () => {
    const s = await scheduleIn("09:00", "UTC");
    const runs = await tickAt(s.id, ["2026-03-02T11:59:00Z"]);
    expect(runs).toEqual([expect.objectContaining({ local_date: "2026-03-02", status: "open" })]);
    const jobs = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from pgboss.job where name = 'standup.fanout' and data->>'teamId' = ${s.teamId}`,
    );
    expect(jobs[0]!.n).toBe(1);
  });

  it("a run 3 h 01 min late is skipped, recorded once and never fanned out", async () => {
    const s = await scheduleIn("09:00", "UTC");
    const runs = await tickAt(s.id, ["2026-03-02T12:01:00Z", "2026-03-02T12:01:30Z"]);
    expect(runs).toEqual([expect.objectContaining({ local_date: "2026-03-02", status: "skipped" })]);
    const jobs = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from pgboss.job where name = 'standup.fanout' and data->>'teamId' = ${s.teamId}`,
    );
    expect(jobs[0]!.n).toBe(0);
  });

  it("a 23:50 run caught up after local midnight belongs to the previous local date", async () => {
    const s = await scheduleIn("23:50", "Europe/Paris");
    const runs = await tickAt(s.id, ["2026-03-02T23:10:00Z"]); // 00:10 on Tuesday in Paris
    expect(runs.map((r) => r.local_date)).toEqual(["2026-03-02"]);
  });

  it("paused and deleted schedules and uninstalled workspaces do not run", async () => {
    const paused = await scheduleIn("09:00", "UTC");
    await t.deps.db.execute(sql`update schedules set active = false where id = ${paused.id}`);
    const deleted = await scheduleIn("09:00", "UTC");
    await t.deps.db.execute(sql`update schedules set deleted_at = now() where id = ${deleted.id}`);
    const revoked = await scheduleIn("09:00", "UTC");
    await t.sendEvent(revoked.teamId, { type: "app_uninstalled" });
    await expect
      .poll(
        async () =>
          (
            await rows(
              t.deps.db,
              sql`select 1 from installations where team_id = ${revoked.teamId} and uninstalled_at is not null`,
            )
          ).length,
      )
      .toBe(1);
    t.clock.set("2026-03-09T09:00:10Z");
    await tick(t.deps);
    for (const s of [paused, deleted, revoked]) expect(await runsOf(s.id)).toEqual([]);
  });
});
