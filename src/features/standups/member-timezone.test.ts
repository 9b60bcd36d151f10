import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, useTestApp } from "../../../test/support/app.ts";
import { freshDatabase, onPostgres, secondConnection } from "../../../test/support/database.ts";
import { addHoliday, createSchedule } from "../../../test/support/factories.ts";
import { type FakeSlack, startFakeSlack } from "../../../test/support/fake-slack.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

const ALL_DAYS = "mon,tue,wed,thu,fri,sat,sun";

interface ParticipantDb {
  user_id: string;
  status: string;
  ask_at: Date | null;
  remind_at: Date | null;
  closes_at: Date | null;
  local_date: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A workspace whose channel has these people (id → Slack timezone) and a member-timezone schedule for it. */
async function memberTimezoneTeam(
  t: TestApp,
  teamId: string,
  people: Record<string, string>,
  s: { time?: string; days?: string; reminderMinutes?: number | null } = {},
) {
  const channelId = `C${teamId.slice(1)}`;
  await t.installTeam(teamId);
  for (const [id, tz] of Object.entries(people)) {
    t.fake.addUser(teamId, { id, name: id.toLowerCase(), real_name: id.slice(2), tz });
    await t.addMember(teamId, id, { tz });
  }
  t.fake.addChannel(teamId, {
    id: channelId,
    name: "global",
    members: [...Object.keys(people), `B${teamId.slice(1)}BOT`],
  });
  const scheduleId = await createSchedule(t.deps.db, t.clock, {
    teamId,
    channelId,
    time: s.time ?? "09:30",
    tz: "Europe/Berlin",
    days: s.days ?? ALL_DAYS,
  });
  await t.deps.db.execute(
    sql`update schedules set ask_in_member_timezone = true,
          reminder_minutes = ${s.reminderMinutes === undefined ? 120 : s.reminderMinutes}
        where id = ${scheduleId}`,
  );
  const runs = () =>
    rows<{ id: number; local_date: string; status: string; member_timezone: boolean; closes_at: Date }>(
      t.deps.db,
      sql`select id, local_date::text as local_date, status, member_timezone, closes_at from standup_runs
          where schedule_id = ${scheduleId} order by local_date`,
    );
  const participants = (runId: number) =>
    rows<ParticipantDb>(
      t.deps.db,
      sql`select user_id, status, ask_at, remind_at, closes_at, local_date::text as local_date
          from run_participants where run_id = ${runId} order by ask_at, user_id`,
    );
  const dms = (userId: string, startsWith = "Time for standup") =>
    t.fake.messages(t.fake.dmFor(teamId, userId)).filter((m) => m.text.startsWith(startsWith));
  const parents = () => t.fake.messages(channelId).filter((m) => !m.thread_ts);
  const submit = (userId: string, runId: number, answers: string[]) =>
    t.sendInteraction({
      type: "view_submission",
      team: { id: teamId, domain: "mtz" },
      user: { id: userId, team_id: teamId },
      api_app_id: "A0UPBEAT",
      token: "legacy",
      trigger_id: `trigger.${userId}`,
      view: {
        id: "V0MODAL",
        type: "modal",
        team_id: teamId,
        callback_id: "standup_modal",
        private_metadata: JSON.stringify({ runId }),
        state: {
          values: Object.fromEntries(
            answers.map((a, i) => [`q${i}`, { answer: { type: "plain_text_input", value: a } }]),
          ),
        },
      },
    });
  /** Ticks at each instant (UTC), draining the jobs after each; returns the summed results. */
  const tickAt = async (...instants: string[]) => {
    const sum = { started: [] as number[], membersAsked: 0, membersReminded: 0, closed: 0 };
    for (const at of instants) {
      t.clock.set(at);
      const r = await tick(t.deps);
      await t.deps.queue.drain();
      sum.started.push(...r.started);
      sum.membersAsked += r.membersAsked;
      sum.membersReminded += r.membersReminded;
      sum.closed += r.closed;
    }
    return sum;
  };
  return { teamId, channelId, scheduleId, runs, participants, dms, parents, submit, tickAt };
}

describe("a member-timezone standup across Tokyo, Berlin and Los Angeles", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z"); // Sunday; Berlin is on CET and Los Angeles on PST until 8 March
  const team = await memberTimezoneTeam(
    t,
    "T0MTZ",
    { U0AIKO: "Asia/Tokyo", U0TOM: "Europe/Berlin", U0ETHAN: "America/Los_Angeles" },
    { days: "mon" },
  );
  let runId = 0;

  it("claims Monday's run when 09:30 arrives in UTC+14 and plans each member's own times, asking nobody yet", async () => {
    expect((await team.tickAt("2026-03-01T19:29:50Z")).started).toEqual([]);
    const claimed = await team.tickAt("2026-03-01T19:30:10Z", "2026-03-01T19:30:40Z");
    expect(claimed.started).toHaveLength(1);
    runId = claimed.started[0]!;
    const [run] = await team.runs();
    expect(run).toMatchObject({ local_date: "2026-03-02", status: "open", member_timezone: true });
    // Open until the last window ends: the end of Monday in Los Angeles.
    expect(iso(run!.closes_at)).toBe("2026-03-03T08:00:00.000Z");
    const planned = (await team.participants(runId)).map((p) => ({
      ...p,
      ask_at: iso(p.ask_at),
      remind_at: iso(p.remind_at),
      closes_at: iso(p.closes_at),
    }));
    expect(planned).toEqual([
      {
        user_id: "U0AIKO",
        status: "pending",
        ask_at: "2026-03-02T00:30:00.000Z",
        remind_at: "2026-03-02T02:30:00.000Z",
        closes_at: "2026-03-02T15:00:00.000Z",
        local_date: "2026-03-02",
      },
      {
        user_id: "U0TOM",
        status: "pending",
        ask_at: "2026-03-02T08:30:00.000Z",
        remind_at: "2026-03-02T10:30:00.000Z",
        closes_at: "2026-03-02T23:00:00.000Z",
        local_date: "2026-03-02",
      },
      {
        user_id: "U0ETHAN",
        status: "pending",
        ask_at: "2026-03-02T17:30:00.000Z",
        remind_at: "2026-03-02T19:30:00.000Z",
        closes_at: "2026-03-03T08:00:00.000Z",
        local_date: "2026-03-02",
      },
    ]);
    expect(t.fake.callsTo("chat.postMessage")).toEqual([]);
  });

  it("asks Tokyo at 00:30Z (09:30 JST) and starts the channel thread with that first ask", async () => {
    expect((await team.tickAt("2026-03-02T00:29:50Z")).membersAsked).toBe(0);
    expect((await team.tickAt("2026-03-02T00:30:10Z", "2026-03-02T00:30:40Z")).membersAsked).toBe(1);
    expect(team.parents().map((m) => m.text)).toEqual(["Standup for Monday 2 March 2026"]);
    expect(team.dms("U0AIKO")).toHaveLength(1);
    expect(JSON.stringify(team.dms("U0AIKO")[0]!.blocks)).toContain("Monday 2 March 2026");
    expect(team.dms("U0TOM")).toEqual([]);
    expect(team.dms("U0ETHAN")).toEqual([]);
  });

  it("Tokyo's answer is dated Monday and threaded under the parent; no reminder once answered", async () => {
    t.clock.set("2026-03-02T01:00:00Z");
    expect((await team.submit("U0AIKO", runId, ["Specs", "Build", "none"])).statusCode).toBe(200);
    await t.deps.queue.drain();
    expect((await team.tickAt("2026-03-02T02:30:10Z")).membersReminded).toBe(0);
    const parentTs = team.parents()[0]!.ts;
    const replies = t.fake.messages(team.channelId).filter((m) => m.thread_ts === parentTs);
    expect(replies.map((m) => JSON.stringify(m.blocks)).join()).toContain("U0AIKO");
  });

  it("asks Berlin at 08:30Z (09:30 CET) and reminds Berlin two hours later on its own clock, once", async () => {
    expect((await team.tickAt("2026-03-02T08:29:50Z")).membersAsked).toBe(0);
    expect((await team.tickAt("2026-03-02T08:30:10Z")).membersAsked).toBe(1);
    expect(team.dms("U0TOM")).toHaveLength(1);
    expect((await team.tickAt("2026-03-02T10:29:50Z")).membersReminded).toBe(0);
    expect((await team.tickAt("2026-03-02T10:30:10Z", "2026-03-02T10:30:40Z")).membersReminded).toBe(1);
    expect(team.dms("U0TOM", "Reminder")).toHaveLength(1);
    expect(team.dms("U0AIKO", "Reminder")).toEqual([]);
    expect(team.dms("U0ETHAN")).toEqual([]);
  });

  it("asks Los Angeles at 17:30Z (09:30 PST) and reminds at 19:30Z; still one parent message", async () => {
    expect((await team.tickAt("2026-03-02T17:29:50Z")).membersAsked).toBe(0);
    expect((await team.tickAt("2026-03-02T17:30:10Z")).membersAsked).toBe(1);
    expect((await team.tickAt("2026-03-02T19:30:10Z")).membersReminded).toBe(1);
    expect(team.dms("U0ETHAN")).toHaveLength(1);
    expect(team.dms("U0ETHAN", "Reminder")).toHaveLength(1);
    for (const u of ["U0AIKO", "U0TOM"]) expect(team.dms(u), u).toHaveLength(1);
    expect(team.parents()).toHaveLength(1);
  });

  it("Berlin's window ends at Berlin midnight, though the run stays open for Los Angeles", async () => {
    t.clock.set("2026-03-02T23:30:00Z");
    const res = await team.submit("U0TOM", runId, ["late", "late", "late"]);
    expect(res.json()).toMatchObject({ response_action: "errors" });
    expect((await team.runs())[0]!.status).toBe("open");
  });

  it("Los Angeles answers at 23:00 PST, already Tuesday in UTC: the answer is dated Monday, in Monday's thread", async () => {
    t.clock.set("2026-03-03T07:00:00Z");
    expect((await team.submit("U0ETHAN", runId, ["Calls", "Docs", "-"])).statusCode).toBe(200);
    await t.deps.queue.drain();
    const dates = await rows<{ user_id: string; standup_date: string }>(
      t.deps.db,
      sql`select user_id, standup_date::text as standup_date from responses where team_id = ${team.teamId} order by user_id`,
    );
    expect(dates).toEqual([
      { user_id: "U0AIKO", standup_date: "2026-03-02" },
      { user_id: "U0ETHAN", standup_date: "2026-03-02" },
    ]);
    const parentTs = team.parents()[0]!.ts;
    expect(t.fake.messages(team.channelId).filter((m) => m.thread_ts === parentTs)).toHaveLength(2);
  });

  it("closes once, with one summary, only when the last window (Los Angeles) ends", async () => {
    expect((await team.tickAt("2026-03-03T07:59:50Z")).closed).toBe(0);
    expect((await team.tickAt("2026-03-03T08:00:10Z", "2026-03-03T08:00:40Z")).closed).toBe(1);
    const summaries = t.fake.messages(team.channelId).filter((m) => m.text.startsWith("Standup closed"));
    expect(summaries.map((m) => m.text)).toEqual(["Standup closed: 2/3 answered (67%)"]);
    expect(summaries[0]!.thread_ts).toBe(team.parents()[0]!.ts);
    expect(JSON.stringify(summaries[0]!.blocks)).toContain("U0TOM");
    expect(team.parents()).toHaveLength(1);
  });
});

describe("member-timezone standups: exactly once, DST, holidays, timezone changes, downtime", async () => {
  const t = await useTestApp();
  let n = 0;
  const next = () => `T0MZ${++n}`;
  // The scheduler serves every workspace at once: each case ends its schedules and runs, so the clock
  // moving on in the next case does not act on them.
  afterEach(async () => {
    await t.deps.db.execute(sql`update schedules set active = false`);
    await t.deps.db.execute(sql`update standup_runs set status = 'closed' where status = 'open'`);
    await t.deps.queue.drain();
  });

  it("two ticks racing and re-run ticks and fan-outs ask each member once per date", async () => {
    t.clock.set("2026-03-01T12:00:00Z");
    const team = await memberTimezoneTeam(t, next(), {
      U0AIKO: "Asia/Tokyo",
      U0KEN: "Asia/Tokyo",
      U0TOM: "Europe/Berlin",
    });
    t.clock.set("2026-03-01T19:30:05Z");
    const claims = await Promise.all([tick(t.deps), tick(t.deps)]);
    expect(claims.flatMap((r) => r.started)).toHaveLength(1);
    const runId = claims.flatMap((r) => r.started)[0]!;
    await t.deps.queue.drain();
    // A retried fan-out plans nobody twice.
    await t.deps.queue.enqueue("standup.fanout", {
      teamId: team.teamId,
      runId,
      memberTimezone: { time: "09:30", reminderMinutes: 120 },
    });
    await t.deps.queue.drain();
    expect(await team.participants(runId)).toHaveLength(3);

    t.clock.set("2026-03-02T00:30:05Z");
    const asks = await Promise.all([tick(t.deps), tick(t.deps)]);
    expect(asks.reduce((sum, r) => sum + r.membersAsked, 0)).toBe(2);
    await t.deps.queue.drain();
    await team.tickAt("2026-03-02T00:30:35Z", "2026-03-02T02:30:05Z", "2026-03-02T08:30:05Z", "2026-03-02T08:30:35Z");
    for (const u of ["U0AIKO", "U0KEN", "U0TOM"]) expect(team.dms(u), u).toHaveLength(1);
    expect(team.parents()).toHaveLength(1);

    t.clock.set("2026-03-02T10:30:05Z");
    const reminders = await Promise.all([tick(t.deps), tick(t.deps)]);
    expect(reminders.reduce((sum, r) => sum + r.membersReminded, 0)).toBe(1); // Berlin; Tokyo's came at 02:30
    await t.deps.queue.drain();
    for (const u of ["U0AIKO", "U0KEN", "U0TOM"]) expect(team.dms(u, "Reminder"), u).toHaveLength(1);
  });

  it("Berlin's spring-forward night: a 02:30 standup asks at 03:00 CEST (01:00Z), once", async () => {
    t.clock.set("2026-03-28T12:00:00Z");
    const team = await memberTimezoneTeam(t, next(), { U0TOM: "Europe/Berlin" }, { time: "02:30" });
    const claimed = await team.tickAt("2026-03-28T12:30:10Z");
    expect(claimed.started).toHaveLength(1);
    const [planned] = await team.participants(claimed.started[0]!);
    expect(iso(planned!.ask_at)).toBe("2026-03-29T01:00:00.000Z");
    expect((await team.tickAt("2026-03-29T00:59:30Z")).membersAsked).toBe(0);
    expect(
      (await team.tickAt("2026-03-29T01:00:10Z", "2026-03-29T01:30:00Z", "2026-03-29T02:00:00Z")).membersAsked,
    ).toBe(1);
    expect(team.dms("U0TOM")).toHaveLength(1);
  });

  it("Berlin's fall-back night: a 02:30 standup asks at the first 02:30 (00:30Z) and not again an hour later", async () => {
    t.clock.set("2026-10-24T12:00:00Z");
    const team = await memberTimezoneTeam(t, next(), { U0TOM: "Europe/Berlin" }, { time: "02:30" });
    const claimed = await team.tickAt("2026-10-24T12:30:10Z");
    const [planned] = await team.participants(claimed.started[0]!);
    expect(iso(planned!.ask_at)).toBe("2026-10-25T00:30:00.000Z");
    expect(
      (await team.tickAt("2026-10-25T00:30:10Z", "2026-10-25T01:30:10Z", "2026-10-25T01:45:00Z")).membersAsked,
    ).toBe(1);
    expect(team.dms("U0TOM")).toHaveLength(1);
  });

  it("a workspace holiday skips the date for everyone, whatever their timezone", async () => {
    t.clock.set("2026-03-01T12:00:00Z");
    const team = await memberTimezoneTeam(
      t,
      next(),
      { U0AIKO: "Asia/Tokyo", U0ETHAN: "America/Los_Angeles" },
      { days: "mon,tue,wed,thu,fri" },
    );
    await addHoliday(t.deps.db, team.teamId, "2026-03-03", "Founders' day");
    await team.tickAt(
      "2026-03-01T19:30:10Z", // Monday's run
      "2026-03-02T00:30:10Z", // Monday 09:30 in Tokyo
      "2026-03-02T17:30:10Z", // Monday 09:30 in Los Angeles
      "2026-03-02T19:30:10Z", // Tuesday's would be claimed here
      "2026-03-03T00:30:10Z", // Tuesday 09:30 in Tokyo
      "2026-03-03T17:30:10Z", // Tuesday 09:30 in Los Angeles
      "2026-03-03T19:30:10Z", // Wednesday's run
    );
    expect((await team.runs()).map((r) => r.local_date)).toEqual(["2026-03-02", "2026-03-04"]);
    for (const u of ["U0AIKO", "U0ETHAN"]) {
      expect(
        team.dms(u).map((m) => JSON.stringify(m.blocks).includes("Monday 2 March")),
        u,
      ).toEqual([true]);
    }
  });

  it("a member whose Slack timezone changes keeps today's planned time and follows the new zone from the next date", async () => {
    t.clock.set("2026-03-01T12:00:00Z");
    const team = await memberTimezoneTeam(t, next(), { U0TOM: "Europe/Berlin" });
    const monday = (await team.tickAt("2026-03-01T19:30:10Z")).started[0]!;
    // Early Monday in Berlin, Tom's Slack profile moves to New York.
    t.clock.set("2026-03-02T06:00:00Z");
    await t.sendEvent(team.teamId, {
      type: "user_change",
      user: { id: "U0TOM", team_id: team.teamId, name: "tom", real_name: "TOM", tz: "America/New_York" },
    });
    await expect
      .poll(
        async () =>
          (
            await rows<{ tz: string }>(
              t.deps.db,
              sql`select tz from members where team_id = ${team.teamId} and user_id = 'U0TOM'`,
            )
          )[0]?.tz,
      )
      .toBe("America/New_York");
    expect((await team.tickAt("2026-03-02T08:30:10Z")).membersAsked).toBe(1); // Monday: 09:30 Berlin, as planned
    const tuesday = (await team.tickAt("2026-03-02T19:30:10Z")).started[0]!;
    expect(iso((await team.participants(monday))[0]!.ask_at)).toBe("2026-03-02T08:30:00.000Z");
    expect(iso((await team.participants(tuesday))[0]!.ask_at)).toBe("2026-03-03T14:30:00.000Z"); // 09:30 EST
    expect((await team.tickAt("2026-03-03T08:30:10Z")).membersAsked).toBe(0);
    expect((await team.tickAt("2026-03-03T14:30:10Z")).membersAsked).toBe(1);
    expect(team.dms("U0TOM")).toHaveLength(2);
  });

  it("after downtime, each member's ask follows the 3-hour catch-up window on its own", async () => {
    t.clock.set("2026-03-01T12:00:00Z");
    const team = await memberTimezoneTeam(t, next(), {
      U0AIKO: "Asia/Tokyo",
      U0TOM: "Europe/Berlin",
      U0ETHAN: "America/Los_Angeles",
    });
    // The service was down from Sunday noon until 11:00Z on Monday: Tokyo's 00:30Z ask is 10.5 h late,
    // Berlin's 08:30Z ask 2.5 h late, Los Angeles' is still ahead.
    const r = await team.tickAt("2026-03-02T11:00:00Z", "2026-03-02T11:00:30Z", "2026-03-02T17:30:10Z");
    expect(r.started).toHaveLength(1);
    expect(team.dms("U0AIKO")).toEqual([]);
    expect(team.dms("U0TOM")).toHaveLength(1);
    expect(team.dms("U0ETHAN")).toHaveLength(1);
    expect((await team.participants(r.started[0]!)).map((p) => `${p.user_id}:${p.status}`)).toEqual([
      "U0AIKO:pending",
      "U0TOM:asked",
      "U0ETHAN:asked",
    ]);
  });

  it("no surprise DMs: members whose 09:30 passed before the schedule existed, or after it was paused, are not asked", async () => {
    t.clock.set("2026-03-02T12:00:00Z");
    const team = await memberTimezoneTeam(t, next(), {
      U0AIKO: "Asia/Tokyo",
      U0TOM: "Europe/Berlin",
      U0ETHAN: "America/Los_Angeles",
      U0MAUI: "Pacific/Honolulu",
    });
    await t.deps.db.execute(
      sql`update schedules set timing_changed_at = ${t.clock.now()} where id = ${team.scheduleId}`,
    );
    expect((await team.tickAt("2026-03-02T12:00:10Z")).started).toHaveLength(1);
    expect((await team.tickAt("2026-03-02T17:30:10Z")).membersAsked).toBe(1); // Los Angeles only
    expect(team.dms("U0AIKO")).toEqual([]);
    expect(team.dms("U0TOM")).toEqual([]);
    expect(team.dms("U0ETHAN")).toHaveLength(1);
    // Paused before 09:30 in Honolulu (19:30Z): the planned ask is dropped.
    await t.deps.db.execute(sql`update schedules set active = false where id = ${team.scheduleId}`);
    expect((await team.tickAt("2026-03-02T19:30:10Z")).membersAsked).toBe(0);
    expect(team.dms("U0MAUI")).toEqual([]);
    // The run closes at the end of Monday in Honolulu with one asked member; the others count nowhere.
    expect((await team.tickAt("2026-03-03T10:00:10Z")).closed).toBe(1);
    expect(t.fake.messages(team.channelId).find((m) => m.text.startsWith("Standup closed"))?.text).toBe(
      "Standup closed: 0/1 answered (0%)",
    );
    const cookie = await t.signIn(team.teamId, `U${team.teamId.slice(1)}ADMIN`);
    const report = await t.inject({
      method: "GET",
      url: "/dashboard/api/reports?from=2026-03-02&to=2026-03-02",
      headers: { cookie },
    });
    expect(report.json().participation).toEqual([{ date: "2026-03-02", submitted: 0, total: 1, pct: 0 }]);
  });
});

/** Needs a database server that two processes share; CI runs the suite once more on PostgreSQL. */
describe.runIf(onPostgres)("a member-timezone standup on two app instances", () => {
  const clock = new ManualClock("2026-03-01T12:00:00Z");
  let fake: FakeSlack;
  let a: TestApp;
  let b: TestApp;
  const people = { U0AIKO: "Asia/Tokyo", U0KEN: "Asia/Tokyo", U0TOM: "Europe/Berlin" };

  beforeAll(async () => {
    fake = await startFakeSlack();
    const db1 = await freshDatabase();
    a = await createTestApp({ database: db1, fake, clock });
    b = await createTestApp({ database: await secondConnection(db1), fake, clock });
    await memberTimezoneTeam(a, "T0MZTWO", people);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fake?.close();
  });

  it("ticking together claim the run once and ask each member once at their time", async () => {
    const both = async () => {
      const results = await Promise.all([tick(a.deps), tick(b.deps), tick(a.deps), tick(b.deps)]);
      await Promise.all([a.deps.queue.drain(), b.deps.queue.drain()]);
      return results;
    };
    clock.set("2026-03-01T19:30:03Z");
    expect((await both()).flatMap((r) => r.started)).toHaveLength(1);
    clock.set("2026-03-02T00:30:03Z");
    expect((await both()).reduce((sum, r) => sum + r.membersAsked, 0)).toBe(2);
    clock.set("2026-03-02T08:30:03Z");
    expect((await both()).reduce((sum, r) => sum + r.membersAsked, 0)).toBe(1);
    for (const u of Object.keys(people)) {
      const dms = fake.messages(fake.dmFor("T0MZTWO", u)).filter((m) => m.text.startsWith("Time for standup"));
      expect(dms, u).toHaveLength(1);
    }
    expect(fake.messages("C0MZTWO").filter((m) => !m.thread_ts)).toHaveLength(1);
  });
});
