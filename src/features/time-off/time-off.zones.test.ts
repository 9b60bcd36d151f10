import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { DEFAULT_WORKING_DAYS, saveCalendar } from "../calendar/index.ts";
import { tick } from "../standups/index.ts";

const TEAM = "T0AWAYZ";
const CHANNEL = "C0AWAYZ";
const ANA = "U0ZANA";
const BEN = "U0ZBEN";

/**
 * The workspace calendar in Tokyo, the standup in Los Angeles: on Tuesday morning in LA it is already Wednesday in
 * Tokyo, and the LA run is for Tuesday.
 */
describe("time off when the calendar's zone is ahead of the schedule's", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:00:00Z"); // Monday 17:00 in Tokyo
  await t.installTeam(TEAM);
  for (const [id, name] of [
    [ANA, "Ana"],
    [BEN, "Ben"],
  ] as const) {
    t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name, tz: "Asia/Tokyo" });
    await t.addMember(TEAM, id, { realName: name, tz: "Asia/Tokyo" });
  }
  t.fake.addChannel(TEAM, { id: CHANNEL, name: "standup", members: [ANA, BEN, "B0AWAYZBOT"] });
  await saveCalendar(t.deps.db, TEAM, { timezone: "Asia/Tokyo", workingDays: DEFAULT_WORKING_DAYS }, t.clock.now());
  await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: CHANNEL,
    time: "09:00",
    tz: "America/Los_Angeles",
  });

  const command = async (user: string, text: string): Promise<string> => {
    const res = await t.sendCommand(TEAM, user, text);
    expect(res.statusCode).toBe(200);
    return (res.json() as { text: string }).text;
  };
  const ranges = (user: string) =>
    rows<{ start_date: string; end_date: string }>(
      t.deps.db,
      sql`select start_date::text, end_date::text from time_off where team_id = ${TEAM} and user_id = ${user}
          order by start_date`,
    );
  const participant = async (user: string) =>
    (
      await rows<{ status: string; local_date: string }>(
        t.deps.db,
        sql`select p.status, r.local_date::text from run_participants p join standup_runs r on r.id = p.run_id
            where p.team_id = ${TEAM} and p.user_id = ${user} and r.status = 'open'`,
      )
    )[0];
  const asks = (user: string) => {
    const dm = t.fake.dmFor(TEAM, user);
    return dm
      ? t.fake
          .callsTo("chat.postMessage")
          .filter((c) => c.ok && c.args.channel === dm && JSON.stringify(c.args.blocks).includes("standup_answer"))
      : [];
  };

  it("back on Tuesday morning in LA (Wednesday in Tokyo) ends the range before Tuesday: the open run asks", async () => {
    expect(await command(ANA, "away 2026-03-02 2026-03-06")).toContain(":palm_tree:");
    t.clock.set("2026-03-03T17:00:10Z"); // Tuesday 09:00 in LA, Wednesday 02:00 in Tokyo
    expect((await tick(t.deps)).started).toHaveLength(1);
    await t.deps.queue.drain();
    expect(await participant(ANA)).toEqual({ status: "away", local_date: "2026-03-03" });
    expect(asks(ANA)).toHaveLength(0);

    t.clock.set("2026-03-03T17:30:00Z");
    expect(await command(ANA, "back")).toBe(
      "Welcome back! Your time off 2026-03-02 to 2026-03-06 now ends 2026-03-02; you will be asked again from today.",
    );
    expect(await ranges(ANA)).toEqual([{ start_date: "2026-03-02", end_date: "2026-03-02" }]);
    expect((await participant(ANA))?.status).toBe("asked");
    await t.deps.queue.drain();
    expect(asks(ANA)).toHaveLength(1);
  });

  it("an end date one day before the calendar's today is not in the past (the LA run is for that day); two days is", async () => {
    // Wednesday in Tokyo, Tuesday's LA run open: Tuesday can still be set as a day away.
    expect(await command(BEN, "away 2026-03-03")).toContain("You are away 2026-03-03");
    expect(await participant(BEN)).toMatchObject({ status: "away", local_date: "2026-03-03" });
    expect(await command(BEN, "away 2026-03-02")).toContain("end_date: must not be in the past (today is 2026-03-04)");
    expect(await ranges(BEN)).toEqual([{ start_date: "2026-03-03", end_date: "2026-03-03" }]);
  });
});
