import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { memberTimezoneTeam } from "../../../test/support/member-timezone.ts";
import { timeOff } from "../../db/schema.ts";

/**
 * /dashboard/api/today says who a member-timezone standup asks when, and who is away (until when), so the
 * overview never calls people "not answered yet" before they were asked, nor while they are on time off.
 */
describe("today: a member-timezone standup says who is asked when, and who is away", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-01T12:00:00Z"); // Sunday
  const team = await memberTimezoneTeam(
    t,
    "T0ASKS",
    {
      U0AIKO: "Asia/Tokyo",
      U0TOM: "Europe/Berlin",
      U0ETHAN: "America/Los_Angeles",
      U0LUCIA: "Europe/Madrid",
    },
    { days: "mon,tue,wed,thu,fri" },
  );
  // Lucía is off Monday to Friday: the run marks her away, never asks her.
  await t.deps.db.insert(timeOff).values({
    teamId: "T0ASKS",
    userId: "U0LUCIA",
    startDate: "2026-03-02",
    endDate: "2026-03-06",
    createdBy: "U0LUCIA",
    createdAt: new Date("2026-03-01T12:00:00Z"),
    updatedAt: new Date("2026-03-01T12:00:00Z"),
  });
  // Monday's run starts when 09:30 comes anywhere; Tokyo is asked at 00:30Z and Tom (Berlin) later.
  await team.tickAt("2026-03-01T19:30:10Z", "2026-03-02T00:30:10Z", "2026-03-02T00:30:40Z");
  const admin = await t.signIn("T0ASKS", "U0ASKSADMIN");

  it("counts the asked, the asked later and the away, and gives each their ask time, zone and time off", async () => {
    t.clock.set("2026-03-02T01:00:00Z");
    const res = await t.inject({ method: "GET", url: "/dashboard/api/today", headers: { cookie: admin } });
    expect(res.statusCode, res.body).toBe(200);
    const [run] = res.json().standups;
    expect(run).toMatchObject({
      member_timezone: true,
      ask_time: "09:30",
      open: true,
      asked: 1,
      answered: 0,
      asked_later: 2,
      away: 1,
    });
    expect(run.not_answered).toEqual([
      {
        user_id: "U0AIKO",
        real_name: "Person U0AIKO",
        status: "waiting",
        ask_at: "2026-03-02T00:30:00Z",
        timezone: "Asia/Tokyo",
        away_until: null,
      },
      {
        user_id: "U0ETHAN",
        real_name: "Person U0ETHAN",
        status: "not_asked_yet",
        ask_at: "2026-03-02T17:30:00Z",
        timezone: "America/Los_Angeles",
        away_until: null,
      },
      {
        user_id: "U0LUCIA",
        real_name: "Person U0LUCIA",
        status: "away",
        ask_at: "2026-03-02T08:30:00Z",
        timezone: "Europe/Madrid",
        away_until: "2026-03-06",
      },
      {
        user_id: "U0TOM",
        real_name: "Person U0TOM",
        status: "not_asked_yet",
        ask_at: "2026-03-02T08:30:00Z",
        timezone: "Europe/Berlin",
        away_until: null,
      },
    ]);
  });

  it("once Berlin's time has come and Tom answered, one fewer is asked later", async () => {
    await team.tickAt("2026-03-02T08:30:10Z", "2026-03-02T08:30:40Z");
    t.clock.set("2026-03-02T09:00:00Z");
    expect((await team.submit("U0TOM", (await team.runs())[0]!.id, ["Specs", "Build", "none"])).statusCode).toBe(200);
    await t.deps.queue.drain();
    const res = await t.inject({ method: "GET", url: "/dashboard/api/today", headers: { cookie: admin } });
    const [run] = res.json().standups;
    expect(run).toMatchObject({ asked: 2, answered: 1, asked_later: 1, away: 1 });
    expect(run.not_answered.map((p: { user_id: string; status: string }) => [p.user_id, p.status])).toEqual([
      ["U0AIKO", "waiting"],
      ["U0ETHAN", "not_asked_yet"],
      ["U0LUCIA", "away"],
    ]);
  });

  it("a member reads the same figures as an admin", async () => {
    const other = await t.signIn("T0ASKS", "U0AIKO");
    const mine = await t.inject({ method: "GET", url: "/dashboard/api/today", headers: { cookie: other } });
    expect(mine.json().standups[0]).toMatchObject({ asked_later: 1, away: 1 });
  });
});
