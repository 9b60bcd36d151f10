import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { addHoliday, createSchedule, seedRun } from "../../../test/support/factories.ts";
import { buildHomeView } from "./home.ts";

const MINUTE = 60_000;

describe("App Home lists the member's own standups", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-02T08:00:00Z"); // Monday
  const TEAM = "T0OWN";
  const ME = "U0OWNME";
  await t.installTeam(TEAM);
  await t.addMember(TEAM, ME, { tz: "UTC" });
  await t.addMember(TEAM, "U0OWNOTHER");
  t.fake.addChannel(TEAM, { id: "C0OWNMINE", name: "mine", members: [ME, "U0OWNOTHER", "BT0OWNBOT"] });
  t.fake.addChannel(TEAM, { id: "C0OWNTHEIRS", name: "theirs", members: ["U0OWNOTHER", "BT0OWNBOT"] });
  const mine = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0OWNMINE", time: "09:00" });
  await t.deps.db.execute(sql`update schedules set name = 'Core team daily' where id = ${mine}`);
  const theirs = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0OWNTHEIRS", time: "09:00" });
  await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0OWNMINE", time: "11:00", active: false });

  const home = async () => JSON.stringify(await buildHomeView(t.deps, TEAM, ME));

  it("shows the standups of channels the member is in, by name, and not other channels' or paused ones", async () => {
    const text = await home();
    expect(text).toContain("Core team daily");
    expect(text).toContain("<#C0OWNMINE>");
    expect(text).not.toContain("C0OWNTHEIRS");
    expect(text).not.toContain("11:00");
    expect(theirs).toMatch(/^S/);
  });

  it("the next run skips a workspace holiday, not a Celebrations-only one", async () => {
    await addHoliday(t.deps.db, TEAM, "2026-03-02", "Team day");
    await addHoliday(t.deps.db, TEAM, "2026-03-03", "Offsite party", { skipsStandups: false });
    t.clock.advance(2 * MINUTE);
    expect(await home()).toContain("Next run: Tue 3 Mar, 09:00 UTC");
  });

  it("a date that already ran is not the next run", async () => {
    await seedRun(t.deps.db, { teamId: TEAM, scheduleId: mine, date: "2026-03-03", asked: [ME], answers: {} });
    t.clock.set("2026-03-03T07:00:00Z");
    const text = await home();
    expect(text).toContain("waiting for your answer");
    expect(text).toContain("Next run: Wed 4 Mar, 09:00 UTC");
  });

  it("when Slack cannot list a channel, a standup whose latest run asked the member still shows", async () => {
    const gone = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0OWNGONE", time: "10:00" });
    const notMine = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0OWNGONE2", time: "10:00" });
    await seedRun(t.deps.db, { teamId: TEAM, scheduleId: gone, date: "2026-03-02", asked: [ME], answers: {} });
    await seedRun(t.deps.db, {
      teamId: TEAM,
      scheduleId: notMine,
      date: "2026-03-02",
      asked: ["U0OWNOTHER"],
      answers: {},
    });
    const text = await home();
    expect(text).toContain("<#C0OWNGONE>");
    expect(text).not.toContain("<#C0OWNGONE2>");
  });

  it("takes as many queries for twelve standups as for one", async () => {
    const queriesOf = async (team: string, user: string) => {
      await buildHomeView(t.deps, team, user); // warm the channel cache: only the database counts
      const select = vi.spyOn(t.deps.db, "select");
      const execute = vi.spyOn(t.deps.db, "execute");
      try {
        await buildHomeView(t.deps, team, user);
        return select.mock.calls.length + execute.mock.calls.length;
      } finally {
        select.mockRestore();
        execute.mockRestore();
      }
    };
    await t.installTeam("T0OWNONE");
    await t.addMember("T0OWNONE", "U0SOLO");
    t.fake.addChannel("T0OWNONE", { id: "C0SOLO", name: "solo", members: ["U0SOLO"] });
    await createSchedule(t.deps.db, t.clock, { teamId: "T0OWNONE", channelId: "C0SOLO", time: "09:00" });
    await t.installTeam("T0OWNMANY");
    await t.addMember("T0OWNMANY", "U0MANY");
    for (let i = 0; i < 12; i++) {
      t.fake.addChannel("T0OWNMANY", { id: `C0MANY${i}`, name: `many-${i}`, members: ["U0MANY"] });
      await createSchedule(t.deps.db, t.clock, { teamId: "T0OWNMANY", channelId: `C0MANY${i}`, time: "09:00" });
    }
    const one = await queriesOf("T0OWNONE", "U0SOLO");
    const many = await queriesOf("T0OWNMANY", "U0MANY");
    expect(one).toBeGreaterThan(0);
    expect(many).toBe(one);
    // Header, twelve standups, the time-off line and its buttons, the dashboard button.
    expect((await buildHomeView(t.deps, "T0OWNMANY", "U0MANY")).blocks).toHaveLength(12 + 4);
  });
});
