import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import { tick } from "./scheduler.ts";

const ALL_DAYS = "mon,tue,wed,thu,fri,sat,sun";

interface RunDb {
  local_date: string;
  status: string;
  trigger: string;
  starts_at: Date;
  remind_at: Date | null;
  blocker_question: number | null;
}

describe("no surprise runs: a date runs only if the timing was set before its start", async () => {
  const t = await useTestApp();
  const TEAM = "T0QUIET";
  await t.installTeam(TEAM);
  t.fake.addChannel(TEAM, { id: "C0QUIET", name: "quiet", members: ["B0QUIETBOT"] });
  const admin = await t.signIn(TEAM, "U0QUIETADMIN");

  async function send(method: "POST" | "PUT", url: string, at: string, body: Record<string, unknown>) {
    t.clock.set(at);
    const res = await t.inject({
      method,
      url,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as { id: string };
  }
  const createAt = (at: string, body: Record<string, unknown>) =>
    send("POST", "/dashboard/api/standups", at, {
      channel_id: "C0QUIET",
      schedule_tz: "UTC",
      schedule_days: ALL_DAYS,
      ...body,
    });
  const editAt = (id: string, at: string, body: Record<string, unknown>) =>
    send("PUT", `/dashboard/api/standups/${id}`, at, body);
  const runsOf = (id: string) =>
    rows<RunDb>(
      t.deps.db,
      sql`select local_date::text as local_date, status, trigger, starts_at, remind_at, blocker_question
          from standup_runs where schedule_id = ${id} order by local_date`,
    );
  async function tickAt(...instants: string[]) {
    for (const at of instants) {
      t.clock.set(at);
      await tick(t.deps);
    }
  }

  it("a standup created at 11:13 for 09:00 does not run today, records no skip, and runs tomorrow at 09:00", async () => {
    const s = await createAt("2026-03-02T11:13:00Z", { schedule_time: "09:00" });
    await tickAt("2026-03-02T11:13:30Z", "2026-03-02T11:59:00Z", "2026-03-02T12:30:00Z", "2026-03-02T23:59:30Z");
    expect(await runsOf(s.id)).toEqual([]);
    await tickAt("2026-03-03T08:59:30Z");
    expect(await runsOf(s.id)).toEqual([]);
    await tickAt("2026-03-03T09:00:00Z");
    expect(await runsOf(s.id)).toEqual([
      expect.objectContaining({ local_date: "2026-03-03", status: "open", trigger: "schedule" }),
    ]);
    expect(new Date((await runsOf(s.id))[0]!.starts_at).toISOString()).toBe("2026-03-03T09:00:00.000Z");
  });

  it("a standup created before its time runs the same day", async () => {
    const s = await createAt("2026-03-10T08:59:00Z", { schedule_time: "09:00" });
    await tickAt("2026-03-10T09:00:05Z");
    expect((await runsOf(s.id)).map((r) => r.local_date)).toEqual(["2026-03-10"]);
  });

  it("moving the time to one already past today does not run today", async () => {
    const s = await createAt("2026-03-15T12:00:00Z", { schedule_time: "15:00" });
    await editAt(s.id, "2026-03-16T10:00:00Z", { schedule_time: "09:30" });
    await tickAt("2026-03-16T10:00:30Z", "2026-03-16T12:00:00Z");
    expect(await runsOf(s.id)).toEqual([]);
    await tickAt("2026-03-17T09:30:10Z");
    expect((await runsOf(s.id)).map((r) => r.local_date)).toEqual(["2026-03-17"]);
  });

  it("changing the timezone or the days likewise waits for the next start", async () => {
    const zone = await createAt("2026-03-20T12:00:00Z", { schedule_time: "09:00" });
    // 09:00 in Tokyo on 21 March was 00:00 UTC: passed when the zone changes at 01:00 UTC.
    await editAt(zone.id, "2026-03-21T01:00:00Z", { schedule_tz: "Asia/Tokyo" });
    await tickAt("2026-03-21T01:00:30Z");
    expect(await runsOf(zone.id)).toEqual([]);
    await tickAt("2026-03-22T00:00:10Z");
    expect((await runsOf(zone.id)).map((r) => r.local_date)).toEqual(["2026-03-22"]);

    const days = await createAt("2026-03-28T12:00:00Z", { schedule_time: "09:00", schedule_days: "mon" });
    await tickAt("2026-03-30T09:00:10Z");
    // Tuesday 10:00: Tuesday is added after its 09:00 had passed.
    await editAt(days.id, "2026-03-31T10:00:00Z", { schedule_days: "tue,wed" });
    await tickAt("2026-03-31T10:00:30Z");
    expect((await runsOf(days.id)).map((r) => r.local_date)).toEqual(["2026-03-30"]);
    await tickAt("2026-04-01T09:00:10Z");
    expect((await runsOf(days.id)).map((r) => r.local_date)).toEqual(["2026-03-30", "2026-04-01"]);
  });

  it("resuming a paused standup after its time does not run today; pausing and resuming before it does", async () => {
    const late = await createAt("2026-03-24T12:00:00Z", { schedule_time: "09:00" });
    await editAt(late.id, "2026-03-25T08:00:00Z", { active: false });
    await editAt(late.id, "2026-03-25T10:00:00Z", { active: true });
    await tickAt("2026-03-25T10:00:30Z");
    expect(await runsOf(late.id)).toEqual([]);
    await tickAt("2026-03-26T09:00:10Z");
    expect((await runsOf(late.id)).map((r) => r.local_date)).toEqual(["2026-03-26"]);

    const early = await createAt("2026-03-27T06:00:00Z", { schedule_time: "09:00", active: false });
    await editAt(early.id, "2026-03-28T08:00:00Z", { active: true });
    await tickAt("2026-03-28T09:00:10Z");
    expect((await runsOf(early.id)).map((r) => r.local_date)).toEqual(["2026-03-28"]);
  });

  it("a rename or a question edit after the start does not stop a downtime catch-up", async () => {
    const s = await createAt("2026-04-01T12:00:00Z", { schedule_time: "09:00" });
    await editAt(s.id, "2026-04-02T10:00:00Z", { name: "Morning sync", questions: ["How is it going?"] });
    // The service was down from before 09:00 until 10:30: 1 h 30 min late still starts.
    await tickAt("2026-04-02T10:30:00Z");
    expect(await runsOf(s.id)).toEqual([expect.objectContaining({ local_date: "2026-04-02", status: "open" })]);
  });

  it("real downtime: 2 hours late still runs, 3 hours or more is skipped as before", async () => {
    const caught = await createAt("2026-04-05T12:00:00Z", { schedule_time: "09:00" });
    await tickAt("2026-04-06T11:00:00Z");
    expect(await runsOf(caught.id)).toEqual([expect.objectContaining({ local_date: "2026-04-06", status: "open" })]);

    const missed = await createAt("2026-04-07T12:00:00Z", { schedule_time: "09:00" });
    await tickAt("2026-04-08T12:00:00Z", "2026-04-08T12:00:30Z");
    expect(await runsOf(missed.id)).toEqual([expect.objectContaining({ local_date: "2026-04-08", status: "skipped" })]);
  });
});

describe("quiet by default: the reminder follows the schedule", async () => {
  const t = await useTestApp();
  const TEAM = "T0REMIND";
  await t.installTeam(TEAM);
  const admin = await t.signIn(TEAM, "U0REMINDADMIN");
  const people = ["U0REMANA", "U0REMBEN"];
  for (const u of people) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: "C0REMIND", name: "remind", members: [...people, "BT0REMINDBOT"] });

  async function create(body: Record<string, unknown>) {
    t.clock.set("2026-03-01T12:00:00Z");
    const res = await t.inject({
      method: "POST",
      url: "/dashboard/api/standups",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ channel_id: "C0REMIND", schedule_tz: "UTC", schedule_days: ALL_DAYS, ...body }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string };
  }
  const run = async (id: string) =>
    (
      await rows<{ id: number; remind_at: Date | null; blocker_question: number | null }>(
        t.deps.db,
        sql`select id, remind_at, blocker_question from standup_runs where schedule_id = ${id}`,
      )
    )[0]!;
  const reminders = () =>
    t.fake.callsTo("chat.postMessage").filter((c) => c.ok && String(c.args.text).startsWith("Reminder"));

  it("reminder_minutes is snapshotted into the run at its start; a later edit does not move it", async () => {
    const s = await create({ schedule_time: "09:00", reminder_minutes: 30, blocker_question: 2 });
    t.clock.set("2026-03-02T09:00:05Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    await t.inject({
      method: "PUT",
      url: `/dashboard/api/standups/${s.id}`,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ reminder_minutes: 300, blocker_question: null }),
    });
    const started = await run(s.id);
    expect(new Date(started.remind_at!).toISOString()).toBe("2026-03-02T09:30:00.000Z");
    expect(started.blocker_question).toBe(2);
    t.clock.set("2026-03-02T09:29:30Z");
    expect((await tick(t.deps)).reminded).toBe(0);
    t.clock.set("2026-03-02T09:30:05Z");
    expect((await tick(t.deps)).reminded).toBe(1);
    await t.deps.queue.drain();
    expect(reminders()).toHaveLength(2);
  });

  it("reminder_minutes null: the run has no reminder time and nobody is reminded", async () => {
    const s = await create({ schedule_time: "10:00", reminder_minutes: null });
    const before = reminders().length;
    t.clock.set("2026-03-02T10:00:05Z");
    await tick(t.deps);
    await t.deps.queue.drain();
    expect((await run(s.id)).remind_at).toBe(null);
    for (const at of ["2026-03-02T12:00:30Z", "2026-03-02T20:00:00Z", "2026-03-02T23:59:00Z"]) {
      t.clock.set(at);
      expect((await tick(t.deps)).reminded).toBe(0);
    }
    await t.deps.queue.drain();
    expect(reminders().length).toBe(before);
  });
});
