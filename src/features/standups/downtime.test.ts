import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { submitStandup } from "../../../test/support/standup-answers.ts";
import { rows } from "../../db/client.ts";
import { reminderAfterAsk } from "./run-rules.ts";
import { tick } from "./scheduler.ts";

const TEAM = "T0DOWN";
const PEOPLE = ["U0DNANA", "U0DNBEN", "U0DNCAT"];
const HOUR = 3600_000;

/**
 * A 09:00 standup in Berlin (UTC+1 in March: 09:00 there is 08:00 UTC) with the default reminder two hours after the
 * ask, and a service that was down around that time. Instants below are UTC; the comments give Berlin's time.
 */
describe("after downtime", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z");
  await t.installTeam(TEAM);
  for (const u of PEOPLE) {
    t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
    await t.addMember(TEAM, u);
  }
  t.fake.addChannel(TEAM, { id: "C0DOWN", name: "down", members: [...PEOPLE] });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: "C0DOWN",
    time: "09:00",
    tz: "Europe/Berlin",
    days: "mon,tue,wed,thu,fri,sat,sun",
  });
  const admin = await t.signIn(TEAM, "U0DOWNADMIN");

  const reminders = () =>
    t.fake.callsTo("chat.postMessage").filter((c) => c.ok && String(c.args.text).startsWith("Reminder"));
  const runOn = async (localDate: string) =>
    (
      await rows<{ id: number; status: string; trigger: string; starts_at: Date }>(
        t.deps.db,
        sql`select id::int as id, status, trigger, starts_at from standup_runs
            where schedule_id = ${scheduleId} and local_date = ${localDate}`,
      )
    )[0];
  const askedAt = async (runId: number) =>
    (
      await rows<{ asked_at: Date | null }>(
        t.deps.db,
        sql`select asked_at from run_participants where run_id = ${runId} order by user_id`,
      )
    ).map((r) => r.asked_at && new Date(r.asked_at).toISOString());
  /** Ticks at each instant (jobs drained after each) and counts the reminder DMs sent meanwhile. */
  async function remindersAt(...instants: string[]): Promise<number> {
    const before = reminders().length;
    for (const at of instants) {
      t.clock.set(at);
      await tick(t.deps);
      await t.deps.queue.drain();
    }
    return reminders().length - before;
  }

  it("down from 08:50 to 10:30: the run starts at 10:30 and nobody is reminded before 12:30", async () => {
    t.clock.set("2026-03-02T07:50:00Z"); // 08:50: the last tick before the service went down
    await tick(t.deps);
    t.clock.set("2026-03-02T09:30:00Z"); // 10:30: back up
    const started = await tick(t.deps);
    expect(started.started).toHaveLength(1);
    expect(started.reminded).toBe(0);
    await t.deps.queue.drain();
    const run = (await runOn("2026-03-02"))!;
    expect(run.status).toBe("open");
    expect(await askedAt(run.id)).toEqual(PEOPLE.map(() => "2026-03-02T09:30:00.000Z"));
    // Ana answers meanwhile: she is not reminded.
    t.clock.set("2026-03-02T10:15:00Z");
    expect((await submitStandup(t, TEAM, "U0DNANA", run.id, ["a", "b", "none"])).statusCode).toBe(200);
    // 11:00 (two hours after the planned start, the old reminder time) through 12:29:30: nothing.
    expect(await remindersAt("2026-03-02T09:30:30Z", "2026-03-02T10:00:05Z", "2026-03-02T11:29:30Z")).toBe(0);
    // 12:30, two hours after the ask: the two who have not answered, once.
    expect(await remindersAt("2026-03-02T11:30:05Z", "2026-03-02T11:30:35Z", "2026-03-02T13:00:00Z")).toBe(2);
    expect(
      reminders()
        .map((c) => c.args.channel)
        .sort(),
    ).toEqual(["U0DNBEN", "U0DNCAT"].map((u) => t.fake.dmFor(TEAM, u)).sort());
  });

  it("back at 11:10, after the planned reminder time: reminders still come, two hours after the ask", async () => {
    t.clock.set("2026-03-03T10:10:00Z"); // 11:10, 2 h 10 min late: starts; its planned reminder (11:00) has passed
    expect((await tick(t.deps)).reminded).toBe(0);
    await t.deps.queue.drain();
    expect(await remindersAt("2026-03-03T10:10:30Z", "2026-03-03T12:09:30Z")).toBe(0);
    expect(await remindersAt("2026-03-03T12:10:05Z")).toBe(3);
  });

  it("down until 12:30: the day is skipped; Run now then runs it, once, and reminds two hours after its ask", async () => {
    t.clock.set("2026-03-04T11:30:00Z"); // 12:30, 3 h 30 min late
    expect((await tick(t.deps)).skipped).toBe(1);
    const skipped = (await runOn("2026-03-04"))!;
    expect(skipped.status).toBe("skipped");
    const press = () =>
      t.inject({
        method: "POST",
        url: `/dashboard/api/standups/${scheduleId}/run`,
        headers: { cookie: admin, "content-type": "application/json" },
        payload: "{}",
      });
    const presses = await Promise.all([press(), press(), press()]);
    expect(presses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const created = presses.find((r) => r.statusCode === 201)!.json();
    expect(created).toMatchObject({ run_id: skipped.id, local_date: "2026-03-04", trigger: "manual", asked: 3 });
    expect((await press()).statusCode).toBe(409);
    const run = (await runOn("2026-03-04"))!;
    expect(run).toMatchObject({ id: skipped.id, status: "open", trigger: "manual" });
    await t.deps.queue.drain();
    expect(await askedAt(run.id)).toEqual(PEOPLE.map(() => "2026-03-04T11:30:00.000Z"));
    // Later ticks neither skip it again nor remind before two hours after the ask.
    expect(await remindersAt("2026-03-04T11:30:30Z", "2026-03-04T13:29:30Z")).toBe(0);
    expect(await remindersAt("2026-03-04T13:30:05Z")).toBe(3);
    expect((await runOn("2026-03-04"))!.status).toBe("open");
  });
});

describe("when a late ask is reminded", () => {
  const at = (iso: string) => new Date(iso);
  it("the schedule's delay after the ask, when that leaves time before the close", () => {
    expect(reminderAfterAsk(at("2026-03-02T09:30:00Z"), 2 * HOUR, at("2026-03-02T23:00:00Z"))).toEqual(
      at("2026-03-02T11:30:00Z"),
    );
  });
  it("half an hour before the close when the delay would end later, if that is an hour or more after the ask", () => {
    // A 21:30 standup back from downtime at 23:45: its window closes at 01:30 (four hours after its start).
    expect(reminderAfterAsk(at("2026-03-02T23:45:00Z"), 2 * HOUR, at("2026-03-03T01:30:00Z"))).toEqual(
      at("2026-03-03T01:00:00Z"),
    );
  });
  it("none when that leaves too little time, or when the schedule has no reminder", () => {
    expect(reminderAfterAsk(at("2026-03-03T00:15:00Z"), 2 * HOUR, at("2026-03-03T01:30:00Z"))).toBeNull();
    expect(reminderAfterAsk(at("2026-03-02T09:30:00Z"), null, at("2026-03-02T23:00:00Z"))).toBeNull();
  });
});
