import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeSlack } from "../../../dev/fake-slack/index.ts";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { onPostgres } from "../../../test/support/database.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { startTwoInstances } from "../../../test/support/two-instances.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

const ALL_DAYS = "mon,tue,wed,thu,fri,sat,sun";

interface RunDb {
  id: number;
  local_date: string;
  status: string;
  trigger: string;
  starts_at: Date;
  remind_at: Date | null;
  blocker_question: number | null;
  member_timezone: boolean;
}

describe("Run now", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:00:00Z"); // Monday
  const TEAM = "T0RUN";
  await t.installTeam(TEAM);
  await t.installTeam("T0RUNOTHER");
  const admin = await t.signIn(TEAM, "U0RUNADMIN");
  const otherAdmin = await t.signIn("T0RUNOTHER", "U0RUNOTHERADMIN");
  await t.addMember(TEAM, "U0RUNMEMBER");
  const member = await t.signIn(TEAM, "U0RUNMEMBER");
  const people = ["U0RUNANA", "U0RUNBEN", "U0RUNCAT"];
  for (const u of people) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: "C0RUN", name: "run", members: [...people, "BT0RUNBOT"] });

  const post = (url: string, cookie: string, payload: unknown = {}) =>
    t.inject({
      method: "POST",
      url,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
  async function create(body: Record<string, unknown>) {
    const res = await post("/dashboard/api/schedules", admin, {
      channel_id: "C0RUN",
      schedule_time: "09:00",
      schedule_tz: "UTC",
      schedule_days: ALL_DAYS,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string };
  }
  const runsOf = (id: string) =>
    rows<RunDb>(
      t.deps.db,
      sql`select id::int as id, local_date::text as local_date, status, trigger, starts_at, remind_at, blocker_question, member_timezone
          from standup_runs where schedule_id = ${id} order by local_date`,
    );
  const askedDms = (user: string) =>
    t.fake.messages(t.fake.dmFor(TEAM, user)).filter((m) => m.text.startsWith("Time for standup"));

  it("starts today's run at once: 201 with the run, trigger manual, and the channel's active members are asked", async () => {
    const s = await create({ reminder_minutes: 45, questions: ["A?", "B?", "Blocked?", "D?"], blocker_question: 3 });
    const res = await post(`/dashboard/api/standups/${s.id}/run`, admin);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      run_id: expect.any(Number),
      schedule_id: s.id,
      local_date: "2026-03-02",
      trigger: "manual",
      asked: 3,
    });
    const [run] = await runsOf(s.id);
    expect(run).toMatchObject({
      id: body.run_id,
      local_date: "2026-03-02",
      status: "open",
      trigger: "manual",
      blocker_question: 3,
      member_timezone: false,
    });
    expect(new Date(run!.starts_at).toISOString()).toBe("2026-03-02T08:00:00.000Z");
    expect(new Date(run!.remind_at!).toISOString()).toBe("2026-03-02T08:45:00.000Z");
    await t.deps.queue.drain();
    for (const u of people) expect(askedDms(u), u).toHaveLength(1);
  });

  it("pressed twice: one run, the second press is 409 with a message", async () => {
    const s = await create({});
    expect((await post(`/dashboard/api/standups/${s.id}/run`, admin)).statusCode).toBe(201);
    const again = await post(`/dashboard/api/schedules/${s.id}/run`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: expect.stringContaining("already exists") });
    expect(await runsOf(s.id)).toHaveLength(1);
  });

  it("pressed at the same moment many times: exactly one 201, the rest 409, one fan-out", async () => {
    const s = await create({});
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(`/dashboard/api/standups/${s.id}/run`, admin)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await runsOf(s.id)).toHaveLength(1);
    const [run] = await runsOf(s.id);
    const jobs = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from pgboss.job where name = 'standup.fanout' and (data->>'runId')::bigint = ${run!.id}`,
    );
    expect(jobs[0]!.n).toBe(1);
  });

  it("the scheduled time later the same day does not run again, and the next day runs as usual", async () => {
    const s = await create({});
    expect((await post(`/dashboard/api/standups/${s.id}/run`, admin)).statusCode).toBe(201);
    t.clock.set("2026-03-02T09:00:10Z");
    await tick(t.deps);
    t.clock.set("2026-03-02T12:30:00Z");
    await tick(t.deps);
    expect((await runsOf(s.id)).map((r) => `${r.local_date}:${r.trigger}:${r.status}`)).toEqual([
      "2026-03-02:manual:open",
    ]);
    t.clock.set("2026-03-03T09:00:10Z");
    await tick(t.deps);
    expect((await runsOf(s.id)).map((r) => `${r.local_date}:${r.trigger}`)).toEqual([
      "2026-03-02:manual",
      "2026-03-03:schedule",
    ]);
    t.clock.set("2026-03-02T08:00:00Z");
  });

  it("a day skipped for downtime runs now: the skipped run is revived once, a second press is 409", async () => {
    const id = await createSchedule(t.deps.db, t.clock, {
      teamId: TEAM,
      channelId: "C0RUN",
      time: "09:00",
      days: ALL_DAYS,
    });
    t.clock.set("2026-03-04T12:30:00Z"); // 3 h 30 min late: today's run is recorded as skipped
    await tick(t.deps);
    const [skipped] = await runsOf(id);
    expect(skipped!.status).toBe("skipped");
    const res = await post(`/dashboard/api/standups/${id}/run`, admin);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ run_id: skipped!.id, local_date: "2026-03-04", trigger: "manual" });
    const again = await post(`/dashboard/api/standups/${id}/run`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain("2026-03-04");
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ id: skipped!.id, status: "open", trigger: "manual" });
    expect(new Date(run!.starts_at).toISOString()).toBe("2026-03-04T12:30:00.000Z");
    const jobs = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from pgboss.job where name = 'standup.fanout' and (data->>'runId')::bigint = ${run!.id}`,
    );
    expect(jobs[0]!.n).toBe(1);
    t.clock.set("2026-03-02T08:00:00Z");
  });

  it("today is the schedule's local date: in Auckland it is already Tuesday", async () => {
    const s = await create({ schedule_tz: "Pacific/Auckland" });
    t.clock.set("2026-03-02T14:00:00Z"); // 03:00 on Tuesday 3 March in Auckland
    const res = await post(`/dashboard/api/standups/${s.id}/run`, admin);
    expect(res.json()).toMatchObject({ local_date: "2026-03-03" });
    t.clock.set("2026-03-02T08:00:00Z");
  });

  it("a paused standup is 409 and does not run", async () => {
    const s = await create({ active: false });
    const res = await post(`/dashboard/api/standups/${s.id}/run`, admin);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: expect.stringContaining("paused") });
    expect(await runsOf(s.id)).toEqual([]);
  });

  it("needs an admin; unknown, deleted and other workspaces' ids are 404", async () => {
    const s = await create({});
    expect((await post(`/dashboard/api/standups/${s.id}/run`, member)).statusCode).toBe(403);
    expect((await post(`/dashboard/api/standups/${s.id}/run`, otherAdmin)).statusCode).toBe(404);
    const anonymous = await t.inject({
      method: "POST",
      url: `/dashboard/api/standups/${s.id}/run`,
      headers: { "content-type": "application/json" },
      payload: "{}",
    });
    expect(anonymous.statusCode).toBe(401);
    for (const id of ["SNOSUCHONE0", "not-an-id", `S${"A".repeat(40)}`]) {
      const res = await post(`/dashboard/api/schedules/${encodeURIComponent(id)}/run`, admin);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    await t.inject({ method: "DELETE", url: `/dashboard/api/standups/${s.id}`, headers: { cookie: admin } });
    expect((await post(`/dashboard/api/standups/${s.id}/run`, admin)).statusCode).toBe(404);
    expect(await runsOf(s.id)).toEqual([]);
  });

  it("the list shows the manual run as the last run", async () => {
    const s = await create({});
    await post(`/dashboard/api/standups/${s.id}/run`, admin);
    const list = await t.inject({ method: "GET", url: "/dashboard/api/standups", headers: { cookie: admin } });
    const found = list.json().find((x: { id: string }) => x.id === s.id);
    expect(found.last_run).toMatchObject({ local_date: "2026-03-02", trigger: "manual", status: "open" });
    expect(found.participant_count).toBe(3);
  });
});

/** Needs a database server that two processes share; CI runs the suite once more on PostgreSQL. */
describe.runIf(onPostgres)("Run now on two instances", () => {
  const clock = new ManualClock("2026-03-02T08:00:00Z");
  let fake: FakeSlack;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ a, b, fake, close } = await startTwoInstances({ clock }));
    await a.installTeam("T0RUNTWO");
    fake.addChannel("T0RUNTWO", { id: "C0RUNTWO", name: "two", members: [] });
  });
  afterAll(async () => {
    await close?.();
  });

  it("pressed on both at once: one run, one 409", async () => {
    const id = await createSchedule(a.deps.db, clock, { teamId: "T0RUNTWO", channelId: "C0RUNTWO", time: "09:00" });
    const press = async (app: TestApp) =>
      app.inject({
        method: "POST",
        url: `/dashboard/api/standups/${id}/run`,
        headers: { cookie: await app.signIn("T0RUNTWO", "U0RUNTWOADMIN"), "content-type": "application/json" },
        payload: "{}",
      });
    const answers = await Promise.all([press(a), press(b)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await rows(a.deps.db, sql`select id from standup_runs where schedule_id = ${id}`)).toHaveLength(1);
  });
});
