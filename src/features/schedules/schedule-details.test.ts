import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { addHoliday, seedRun } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { schedules } from "../../db/schema.ts";
import { listSchedules } from "./schedules.service.ts";

const STANDUPS = "/dashboard/api/standups";
const SCHEDULES = "/dashboard/api/schedules";
const MINUTE = 60_000;

describe("named standups: name, blocker question, reminder, member timezone, next and last run, participants", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T14:00:00Z"); // Monday
  const TEAM = "T0DET";
  await t.installTeam(TEAM);
  const admin = await t.signIn(TEAM, "U0DETADMIN");
  t.fake.addChannel(TEAM, { id: "C0DETPUB", name: "platform-team", members: ["BT0DETBOT"] });
  t.fake.addChannel(TEAM, { id: "C0DETOTHER", name: "other-team", members: ["B0DETBOT"] });
  t.fake.addChannel(TEAM, { id: "C0DETTWICE", name: "twice", members: [] });
  t.fake.addChannel(TEAM, { id: "G0DETPRIVATE", name: "secret", is_private: true, members: ["B0DETBOT"] });

  function call(method: "GET" | "POST" | "PUT", url: string, payload?: unknown) {
    if (payload === undefined) return t.inject({ method, url, headers: { cookie: admin } });
    return t.inject({
      method,
      url,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
  }
  async function create(body: Record<string, unknown>) {
    const res = await call("POST", STANDUPS, { schedule_time: "09:00", schedule_tz: "UTC", ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  const stored = async (id: string) => (await t.deps.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;

  it("the name defaults to #<channel name> standup; for a channel Slack does not list, words (never the id) until it does", async () => {
    expect((await create({ channel_id: "C0DETPUB" })).name).toBe("#platform-team standup");
    expect((await create({ channel_id: "G0DETPRIVATE" })).name).toBe("Standup in a channel");
    t.fake.addChannel(TEAM, { id: "G0DETLATER", name: "later", is_private: true, members: ["B0DETBOT"] });
    const later = await create({ channel_id: "G0DETLATER" });
    expect(later.name).toBe("Standup in a channel");
    expect((await stored(later.id)).name).toBe("");
    // Once Slack lists the channel (made public here), the list names the standup after it: nothing was stored.
    t.fake.addChannel(TEAM, { id: "G0DETLATER", name: "later-team", members: ["B0DETBOT"] });
    const before = t.clock.now();
    t.clock.advance(5 * MINUTE); // past the channel list's cache
    const list = (await call("GET", STANDUPS)).json() as { id: string; name: string }[];
    t.clock.set(before);
    expect(list.find((s) => s.id === later.id)?.name).toBe("#later-team standup");
  });

  it("a given name is trimmed and kept, follows no channel, and null restores the default", async () => {
    const s = await create({ channel_id: "C0DETPUB", name: "  Platform daily  " });
    expect(s.name).toBe("Platform daily");
    expect((await stored(s.id)).name).toBe("Platform daily");
    const renamed = await call("PUT", `${SCHEDULES}/${s.id}`, { name: "Platform 🚀 sync" });
    expect(renamed.json().name).toBe("Platform 🚀 sync");
    const reset = await call("PUT", `${STANDUPS}/${s.id}`, { name: null });
    expect(reset.json().name).toBe("#platform-team standup");
    expect((await stored(s.id)).name).toBe("");
  });

  it("each new field is validated with a 400 naming it", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ name: "" }, "name"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(81) }, "name"],
      [{ name: "two\nlines" }, "name"],
      [{ name: 42 }, "name"],
      [{ blocker_question: 0 }, "blocker_question"],
      [{ blocker_question: 1.5 }, "blocker_question"],
      [{ blocker_question: "3" }, "blocker_question"],
      [{ blocker_question: 4 }, "blocker_question"],
      [{ questions: ["One?", "Two?"], blocker_question: 3 }, "blocker_question"],
      [{ reminder_minutes: 14 }, "reminder_minutes"],
      [{ reminder_minutes: 601 }, "reminder_minutes"],
      [{ reminder_minutes: 30.5 }, "reminder_minutes"],
      [{ reminder_minutes: "60" }, "reminder_minutes"],
      [{ ask_in_member_timezone: "yes" }, "ask_in_member_timezone"],
    ];
    for (const [body, field] of bad) {
      const res = await call("POST", STANDUPS, { channel_id: "C0DETPUB", schedule_time: "09:00", ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toContain(field);
    }
    const okName = await create({ channel_id: "C0DETPUB", name: "é".repeat(80) });
    expect([...okName.name]).toHaveLength(80);
  });

  it("stores reminder_minutes (15–600, null for none) and ask_in_member_timezone; defaults are 120 and false", async () => {
    const defaults = await create({ channel_id: "C0DETPUB" });
    expect(defaults).toMatchObject({ reminder_minutes: 120, ask_in_member_timezone: false, blocker_question: 3 });
    const quiet = await create({ channel_id: "C0DETPUB", reminder_minutes: null, ask_in_member_timezone: true });
    expect(quiet).toMatchObject({ reminder_minutes: null, ask_in_member_timezone: true });
    for (const minutes of [15, 600]) {
      const res = await call("PUT", `${STANDUPS}/${quiet.id}`, { reminder_minutes: minutes });
      expect(res.json().reminder_minutes).toBe(minutes);
    }
    expect((await call("PUT", `${STANDUPS}/${quiet.id}`, { reminder_minutes: null })).json().reminder_minutes).toBe(
      null,
    );
  });

  it("the blocker question points at one of the questions, on POST and on PUT against the stored ones", async () => {
    const s = await create({ channel_id: "C0DETPUB", questions: ["A?", "B?", "C?", "D?"], blocker_question: 4 });
    expect(s.blocker_question).toBe(4);
    expect((await call("PUT", `${STANDUPS}/${s.id}`, { blocker_question: 5 })).statusCode).toBe(400);
    expect((await call("PUT", `${STANDUPS}/${s.id}`, { blocker_question: null })).json().blocker_question).toBe(null);
    expect((await call("PUT", `${STANDUPS}/${s.id}`, { blocker_question: 2 })).json().blocker_question).toBe(2);
    const both = await call("PUT", `${STANDUPS}/${s.id}`, { questions: ["X?", "Y?", "Z?"], blocker_question: 3 });
    expect(both.json()).toMatchObject({ questions: ["X?", "Y?", "Z?"], blocker_question: 3 });
    // Dropping the question the blocker pointed at leaves no blocker question rather than a wrong one.
    const shorter = await call("PUT", `${STANDUPS}/${s.id}`, { questions: ["Only?"] });
    expect(shorter.json().blocker_question).toBe(null);
    const failed = await call("PUT", `${STANDUPS}/${s.id}`, { blocker_question: 2 });
    expect(failed.statusCode).toBe(400);
    expect(failed.json().error).toMatch(/blocker_question must be between 1 and 1/);
  });

  it("timing_changed_at is set on create and by a change of time, zone, days, member-timezone mode or a resume; a rename, question edit, reminder change or pause leave it", async () => {
    const s = await create({ channel_id: "C0DETPUB" });
    const created = (await stored(s.id)).timingChangedAt;
    expect(created).toEqual(t.clock.now());
    const keeps = [
      { name: "Renamed" },
      { questions: ["New?"] },
      { reminder_minutes: 30 },
      { blocker_question: null },
      { schedule_time: "09:00" },
      { active: false },
      { channel_id: "C0DETOTHER" },
    ];
    for (const body of keeps) {
      t.clock.advance(MINUTE);
      expect((await call("PUT", `${STANDUPS}/${s.id}`, body)).statusCode).toBe(200);
      expect((await stored(s.id)).timingChangedAt, JSON.stringify(body)).toEqual(created);
    }
    const changes = [
      { active: true },
      { schedule_time: "09:30" },
      { schedule_tz: "Europe/Paris" },
      { schedule_days: "mon" },
      { ask_in_member_timezone: true },
    ];
    for (const body of changes) {
      t.clock.advance(MINUTE);
      expect((await call("PUT", `${STANDUPS}/${s.id}`, body)).statusCode).toBe(200);
      expect((await stored(s.id)).timingChangedAt, JSON.stringify(body)).toEqual(t.clock.now());
    }
  });

  it("a second active standup in the same channel is allowed", async () => {
    const first = await create({ channel_id: "C0DETTWICE" });
    const second = await create({ channel_id: "C0DETTWICE", schedule_time: "15:00" });
    expect(second.id).not.toBe(first.id);
    expect([first.active, second.active]).toEqual([true, true]);
  });
});

describe("next run, last run and participant count", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-27T10:00:00Z"); // Friday
  const TEAM = "T0NXT";
  await t.installTeam(TEAM);
  const admin = await t.signIn(TEAM, "U0NXTADMIN");
  const people = ["U0NXTANA", "U0NXTBEN", "U0NXTCAT", "U0NXTDAN"];
  for (const u of people) await t.addMember(TEAM, u);
  await t.deps.db.execute(sql`update members set active = false where team_id = ${TEAM} and user_id = 'U0NXTDAN'`);
  t.fake.addChannel(TEAM, {
    id: "C0NXT",
    name: "nxt",
    members: [...people, "BT0NXTBOT", "U0NXTSTRANGER"],
  });

  async function create(body: Record<string, unknown>) {
    const res = await t.inject({
      method: "POST",
      url: STANDUPS,
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ channel_id: "C0NXT", ...body }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  const list = async () =>
    (await t.inject({ method: "GET", url: STANDUPS, headers: { cookie: admin } })).json() as {
      id: string;
      next_run_at: string | null;
      last_run: unknown;
      participant_count: number;
    }[];
  const listed = async (id: string) => (await list()).find((s) => s.id === id)!;

  it("next_run_at skips the weekend and a holiday and follows the DST change of the schedule's zone", async () => {
    await addHoliday(t.deps.db, TEAM, "2026-03-30", "Spring holiday");
    await addHoliday(t.deps.db, TEAM, "2026-03-31", "Celebrations only", { skipsStandups: false });
    const s = await create({ schedule_time: "09:00", schedule_tz: "Europe/Berlin" });
    // Friday 27 March 10:00 UTC is past 09:00 CET; Mon 30 is a holiday; Tue 31 09:00 CEST (+02:00) is 07:00 UTC
    // (a Celebrations admin's holiday that day does not stop standups).
    expect(s.next_run_at).toBe("2026-03-31T07:00:00.000Z");
    const paused = await create({ schedule_time: "09:00", active: false });
    expect(paused.next_run_at).toBe(null);
  });

  it("last_run shows the latest run's answered / asked, and a date that already ran is not the next run", async () => {
    const s = await create({ schedule_time: "16:00", schedule_tz: "UTC" });
    expect(s.last_run).toBe(null);
    expect(s.next_run_at).toBe("2026-03-27T16:00:00.000Z");
    await seedRun(t.deps.db, {
      teamId: TEAM,
      scheduleId: s.id,
      date: "2026-03-26",
      asked: ["U0NXTANA", "U0NXTBEN", "U0NXTCAT"],
      answers: { U0NXTANA: { answers: ["a", "b", "c"] }, U0NXTBEN: { answers: ["a", "b", "c"] } },
    });
    expect((await listed(s.id)).last_run).toEqual({
      local_date: "2026-03-26",
      status: "closed",
      trigger: "schedule",
      asked: 3,
      answered: 2,
      asked_later: 0,
      away: 0,
    });
    // Today's run happened early (Run now): the 16:00 start today is not the next run; Monday 30 is a holiday.
    await seedRun(t.deps.db, {
      teamId: TEAM,
      scheduleId: s.id,
      date: "2026-03-27",
      asked: ["U0NXTANA"],
      answers: {},
    });
    const after = await listed(s.id);
    expect(after.last_run).toMatchObject({ local_date: "2026-03-27", asked: 1, answered: 0 });
    expect(after.next_run_at).toBe("2026-03-31T16:00:00.000Z");
    // Who the run did not ask, and why: one away, one whose own time is to come, one whose time long passed.
    const [run] = await rows<{ id: number }>(
      t.deps.db,
      sql`select id::int as id from standup_runs where schedule_id = ${s.id} and local_date = '2026-03-27'`,
    );
    const now = t.clock.now().getTime();
    for (const [userId, status, askAt] of [
      ["U0NXTAWAY", "away", null],
      ["U0NXTLATER", "pending", new Date(now + 3_600_000)],
      ["U0NXTLONGAGO", "pending", new Date(now - 24 * 3_600_000)],
    ] as const) {
      await t.deps.db.execute(
        sql`insert into run_participants (run_id, user_id, team_id, status, ask_at, created_at)
            values (${run!.id}, ${userId}, ${TEAM}, ${status}, ${askAt?.toISOString() ?? null}, now())`,
      );
    }
    expect((await listed(s.id)).last_run).toMatchObject({ asked: 1, answered: 0, asked_later: 1, away: 1 });
  });

  it("participant_count counts the channel's active members: no bots, strangers or people who left", async () => {
    const s = await create({ schedule_time: "09:00" });
    expect(s.participant_count).toBe(3);
  });

  it("participant_count falls back to the last run's count when Slack cannot list the channel", async () => {
    t.fake.addChannel(TEAM, { id: "C0NXTGONE", name: "gone", is_private: true, members: ["B0NXTBOT"] });
    const s = await create({ channel_id: "C0NXTGONE", schedule_time: "09:00" });
    // The app is removed from the private channel: Slack no longer shows it.
    t.fake.addChannel(TEAM, { id: "C0NXTGONE", name: "gone", is_private: true, members: people });
    t.clock.advance(2 * MINUTE);
    expect((await listed(s.id)).participant_count).toBe(0);
    await seedRun(t.deps.db, {
      teamId: TEAM,
      scheduleId: s.id,
      date: "2026-03-20",
      asked: ["U0NXTANA", "U0NXTBEN"],
      answers: {},
    });
    expect((await listed(s.id)).participant_count).toBe(2);
  });

  it("listing many schedules takes as many queries as listing one, and asks Slack once per channel", async () => {
    const team = "T0NXTMANY";
    await t.installTeam(team);
    await t.addMember(team, "U0MANYONE");
    t.fake.addChannel(team, { id: "C0MANY", name: "many", members: ["U0MANYONE"] });
    await t.inject({
      method: "POST",
      url: STANDUPS,
      headers: { cookie: await t.signIn(team, "U0NXTMANYADMIN"), "content-type": "application/json" },
      payload: JSON.stringify({ channel_id: "C0MANY", schedule_time: "09:00" }),
    });
    /** Statements a call runs on the database (drizzle selects and raw SQL). */
    const queriesOf = async (fn: () => Promise<unknown>) => {
      const select = vi.spyOn(t.deps.db, "select");
      const execute = vi.spyOn(t.deps.db, "execute");
      try {
        await fn();
        return select.mock.calls.length + execute.mock.calls.length;
      } finally {
        select.mockRestore();
        execute.mockRestore();
      }
    };
    // Warm caches: only the database is asked.
    await listSchedules(t.deps, team);
    await listSchedules(t.deps, TEAM);
    const one = await queriesOf(() => listSchedules(t.deps, team));
    expect(one).toBeGreaterThan(0);
    expect((await listSchedules(t.deps, TEAM)).length).toBeGreaterThanOrEqual(5);
    expect(await queriesOf(() => listSchedules(t.deps, TEAM))).toBe(one);
    // Past the cache: one members lookup for C0NXT and one for C0NXTGONE, however many schedules share them.
    t.clock.advance(2 * MINUTE);
    const membersCalls = () => t.fake.callsTo("conversations.members").filter((c) => c.teamId === TEAM).length;
    const before = membersCalls();
    await listSchedules(t.deps, TEAM);
    expect(membersCalls() - before).toBe(2);
  });
});
