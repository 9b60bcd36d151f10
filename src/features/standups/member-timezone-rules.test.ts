import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "../../../dev/fake-slack/index.ts";
import { createTestApp, type TestApp, useTestApp } from "../../../test/support/app.ts";
import { freshDatabase, onPostgres, secondConnection } from "../../../test/support/database.ts";
import { addHoliday } from "../../../test/support/factories.ts";
import { reinstallTeam } from "../../../test/support/install.ts";
import { iso, memberTimezoneTeam } from "../../../test/support/member-timezone.ts";
import { rows } from "../../db/client.ts";
import { ManualClock } from "../../lib/clock.ts";
import { tick } from "./scheduler.ts";

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

  it("a re-timing after a date was planned still asks the members not yet asked that day, at the planned time", async () => {
    t.clock.set("2026-03-01T19:00:00Z"); // a Sunday, and the standup runs on weekdays: only Monday is planned
    const team = await memberTimezoneTeam(
      t,
      next(),
      { U0AIKO: "Asia/Tokyo", U0ETHAN: "America/Los_Angeles" },
      { days: "mon,tue,wed,thu,fri" },
    );
    expect((await team.tickAt("2026-03-01T19:30:10Z")).started).toHaveLength(1); // Monday, planned in UTC+14
    expect((await team.tickAt("2026-03-02T00:30:10Z")).membersAsked).toBe(1); // Tokyo 09:30
    // An admin changes the time at 10:00Z, hours before Los Angeles' 09:30 (17:30Z).
    await t.deps.db.execute(
      sql`update schedules set timing_changed_at = ${new Date("2026-03-02T10:00:00Z")} where id = ${team.scheduleId}`,
    );
    expect((await team.tickAt("2026-03-02T17:30:10Z")).membersAsked).toBe(1);
    expect(team.dms("U0ETHAN")).toHaveLength(1);
    expect(team.dms("U0AIKO")).toHaveLength(1);
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
    // The overview says who will still be asked today and who will not (their 09:30 came before the standup).
    const admin = await t.signIn(team.teamId, `U${team.teamId.slice(1)}ADMIN`);
    const today = (await t.inject({ method: "GET", url: "/dashboard/api/today", headers: { cookie: admin } })).json();
    const statusOf = Object.fromEntries(
      today.standups[0].not_answered.map((p: { user_id: string; status: string }) => [p.user_id, p.status]),
    );
    expect(statusOf).toEqual({
      U0AIKO: "not_asked",
      U0TOM: "not_asked",
      U0ETHAN: "not_asked_yet",
      U0MAUI: "not_asked_yet",
    });
    expect((await team.tickAt("2026-03-02T17:30:10Z")).membersAsked).toBe(1); // Los Angeles only
    expect(team.dms("U0AIKO")).toEqual([]);
    expect(team.dms("U0TOM")).toEqual([]);
    expect(team.dms("U0ETHAN")).toHaveLength(1);
    // Paused before 09:30 in Honolulu (19:30Z): the planned ask is dropped.
    await t.deps.db.execute(sql`update schedules set active = false where id = ${team.scheduleId}`);
    expect((await team.tickAt("2026-03-02T19:30:10Z")).membersAsked).toBe(0);
    expect(team.dms("U0MAUI")).toEqual([]);
    // The run closes at the end of Monday in Honolulu with one asked member; the others count nowhere. Still
    // paused then, it posts no summary: a stopped run sends nothing more.
    expect((await team.tickAt("2026-03-03T10:00:10Z")).closed).toBe(1);
    expect(t.fake.messages(team.channelId).filter((m) => m.text.startsWith("Standup closed"))).toEqual([]);
    const cookie = await t.signIn(team.teamId, `U${team.teamId.slice(1)}ADMIN`);
    const report = await t.inject({
      method: "GET",
      url: "/dashboard/api/reports?from=2026-03-02&to=2026-03-02",
      headers: { cookie },
    });
    expect(report.json().participation).toMatchObject([{ date: "2026-03-02", submitted: 0, total: 1, pct: 0 }]);
  });
  it("uninstalled as Tokyo's asks go out and reinstalled the same day: Tokyo is not asked, reminded or named, Berlin is", async () => {
    t.clock.set("2026-03-01T12:00:00Z");
    const team = await memberTimezoneTeam(t, next(), { U0AIKO: "Asia/Tokyo", U0TOM: "Europe/Berlin" });
    const [runId] = (await team.tickAt("2026-03-01T19:30:05Z")).started;
    expect(runId).toBeDefined();
    // Tokyo's 09:30: its ask is claimed, then the workspace uninstalls the app before the ask job runs.
    t.clock.set("2026-03-02T00:30:05Z");
    expect((await tick(t.deps)).membersAsked).toBe(1);
    expect((await t.sendEvent(team.teamId, { type: "app_uninstalled" })).statusCode).toBe(200);
    await expect
      .poll(() =>
        rows(t.deps.db, sql`select 1 from installations where team_id = ${team.teamId} and uninstalled_at is not null`),
      )
      .toHaveLength(1);
    await t.deps.queue.drain();
    const status = async () => Object.fromEntries((await team.participants(runId!)).map((p) => [p.user_id, p.status]));
    expect(await status()).toEqual({ U0AIKO: "pending", U0TOM: "pending" });
    // Not claimed again while the workspace is gone, nor after it comes back (its time came before that).
    expect((await team.tickAt("2026-03-02T00:30:35Z", "2026-03-02T00:31:05Z")).membersAsked).toBe(0);
    t.clock.set("2026-03-02T01:00:00Z");
    await reinstallTeam(t, team.teamId);
    expect((await team.tickAt("2026-03-02T01:00:05Z", "2026-03-02T02:30:05Z")).membersAsked).toBe(0);

    // Berlin's 09:30 comes after the reinstall: asked, then reminded at 11:30.
    expect((await team.tickAt("2026-03-02T08:30:05Z")).membersAsked).toBe(1);
    expect((await team.tickAt("2026-03-02T10:30:05Z")).membersReminded).toBe(1);
    expect((await team.tickAt("2026-03-02T23:00:10Z")).closed).toBe(1);

    expect(team.dms("U0AIKO", "")).toEqual([]);
    expect(team.dms("U0TOM")).toHaveLength(1);
    expect(team.dms("U0TOM", "Reminder")).toHaveLength(1);
    const summaries = t.fake.messages(team.channelId).filter((m) => m.text.startsWith("Standup closed"));
    expect(summaries.map((m) => m.text)).toEqual(["Standup closed: 0/1 answered (0%)"]);
    expect(JSON.stringify(summaries[0]!.blocks)).toContain("TOM");
    expect(JSON.stringify(summaries[0]!.blocks)).not.toContain("AIKO");
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
