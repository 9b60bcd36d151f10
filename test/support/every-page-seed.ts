import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { kudos, timeOff } from "../../src/db/schema.ts";
import type { TestApp } from "./app.ts";
import { setProfile } from "./celebrations.ts";
import { addHoliday, createSchedule, seedRun } from "./factories.ts";

export const TEAM = "T0EVERY";
export const ADMIN = "U0EVADMIN";
export const MEMBER = "U0EVMAYA";

/** The people of the workspace: id, real name, display name, Slack time zone. */
const PEOPLE: [string, string, string, string][] = [
  [ADMIN, "Ada Lovelace", "ada", "Europe/London"],
  [MEMBER, "Maya Okafor", "maya", "Europe/Berlin"],
  ["U0EVLEO", "Leo Fernández", "leo", "America/New_York"],
  ["U0EVPRIYA", "Priya Raman", "priya", "Asia/Kolkata"],
  ["U0EVBEN", "Ben Okoro", "ben", "UTC"],
];
const IDS = PEOPLE.map(([id]) => id);
const MOODS = ["😀", "🙂", "😐", "🙁", "🙂"];

/**
 * A workspace with something on every page: two standups (one asking at member time zones) with a week of answers,
 * blockers and moods; named members; kudos; a birthday and a work anniversary this week; time off and a holiday;
 * Celebrations settings; a rule; a webhook with a delivery (to `receiverUrl`); an MCP key.
 */
export async function seedEveryPage(t: TestApp, receiverUrl: string): Promise<void> {
  await t.installTeam(TEAM, { name: "Every Rockets", installer: ADMIN });
  for (const [id, realName, display, tz] of PEOPLE) {
    t.fake.addUser(TEAM, { id, name: display, real_name: realName, tz });
    await t.addMember(TEAM, id, { realName, tz, ...(id === ADMIN ? { role: "admin" as const } : {}) });
    await t.deps.db.execute(
      sql`update members set display_name = ${display} where team_id = ${TEAM} and user_id = ${id}`,
    );
  }
  const bot = "B0EVERYBOT";
  t.fake.addChannel(TEAM, { id: "C0EVSTAND", name: "team-standup", members: [...IDS, bot] });
  t.fake.addChannel(TEAM, { id: "C0EVGLOBAL", name: "global", members: [...IDS, bot] });
  t.fake.addChannel(TEAM, { id: "C0EVCELEB", name: "celebrations", members: [ADMIN, bot] });
  t.fake.addChannel(TEAM, { id: "C0EVALERT", name: "alerts", members: [ADMIN, bot] });

  const team = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0EVSTAND", time: "09:00" });
  const global = await createSchedule(t.deps.db, t.clock, {
    teamId: TEAM,
    channelId: "C0EVGLOBAL",
    time: "09:30",
    tz: "Europe/Berlin",
  });
  await t.deps.db.execute(sql`update schedules set name = 'Team standup' where id = ${team}`);
  await t.deps.db.execute(
    sql`update schedules set name = 'Global standup', ask_in_member_timezone = true where id = ${global}`,
  );

  const day = (n: number) => new Date(t.clock.now().getTime() + n * 86400_000).toISOString().slice(0, 10);
  for (let back = 6; back >= 1; back--) {
    const answers: Parameters<typeof seedRun>[1]["answers"] = {};
    IDS.forEach((id, i) => {
      if ((back + i) % 4 === 0) return; // someone misses a day now and then
      const blocked = (back + i) % 3 === 0;
      answers[id] = {
        answers: [
          `Shipped part ${back} of the billing page`,
          "Reviews and the release",
          blocked ? "Waiting on the API keys" : "none",
        ],
        mood: MOODS[(back + i) % MOODS.length] ?? null,
      };
    });
    await seedRun(t.deps.db, { teamId: TEAM, scheduleId: team, date: day(-back), asked: IDS, answers });
    await seedRun(t.deps.db, {
      teamId: TEAM,
      scheduleId: global,
      date: day(-back),
      asked: IDS,
      answers: { [MEMBER]: { answers: ["Translations", "Support rotation", "-"], mood: "🙂" } },
    });
  }

  // Today's run of the team standup: three answered (one blocked), two have not.
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId: team,
    date: day(0),
    asked: IDS,
    startsAt: new Date(t.clock.now().getTime() - 3600_000),
    answers: {
      [ADMIN]: { answers: ["Planned the sprint", "Hiring loop", "none"], mood: "🙂" },
      [MEMBER]: { answers: ["Translations", "Release notes", "Blocked on the legal review"], mood: "😐" },
      U0EVLEO: { answers: ["Fixed the flaky test", "Pairing with Priya", "none"], mood: "😀" },
    },
  });

  // Kudos between named people, over the last days.
  for (let i = 0; i < 6; i++) {
    const at = new Date(t.clock.now().getTime() - i * 86400_000);
    await t.deps.db.insert(kudos).values({
      teamId: TEAM,
      fromUser: IDS[i % IDS.length] ?? ADMIN,
      toUser: IDS[(i + 1) % IDS.length] ?? MEMBER,
      message: "Thanks for the careful review",
      channelId: "C0EVSTAND",
      source: "command",
      sourceKey: `cmd:${randomBytes(6).toString("hex")}`,
      givenOn: at.toISOString().slice(0, 10),
      createdAt: at,
    });
  }

  // A birthday in two days and a work anniversary in three.
  const [, bm, bd] = day(2).split("-");
  await setProfile(t.deps.db, TEAM, MEMBER, { birthday: `${bm}-${bd}` });
  await setProfile(t.deps.db, TEAM, "U0EVLEO", { startDate: `${Number(day(3).slice(0, 4)) - 3}${day(3).slice(4)}` });
  await t.deps.db.insert(timeOff).values({
    teamId: TEAM,
    userId: MEMBER,
    startDate: day(4),
    endDate: day(8),
    reason: "Family visit",
    createdBy: MEMBER,
    createdAt: t.clock.now(),
    updatedAt: t.clock.now(),
  });
  await addHoliday(t.deps.db, TEAM, day(10), "Founders' Day");

  const cookie = await t.signIn(TEAM, ADMIN);
  const send = async (method: "POST" | "PUT", url: string, payload: unknown) => {
    const res = await t.inject({
      method,
      url: `/dashboard/api${url}`,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify(payload),
    });
    if (res.statusCode >= 300) throw new Error(`seed ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as { id: number };
  };
  await send("PUT", "/celebrations/settings", {
    channel_id: "C0EVCELEB",
    timezone: "Europe/Berlin",
    working_days: ["mon", "tue", "wed", "thu", "fri"],
    post_time: "09:00",
    birthdays: true,
    anniversaries: true,
  });
  await send("POST", "/rules", { trigger: "blocker_reported", action: "post_to_channel", action_target: "C0EVALERT" });
  // The longest line the rules table shows: a blocker open for days, DMed to an admin by name.
  await send("POST", "/rules", {
    trigger: "blocker_open_days",
    trigger_threshold: 14,
    action: "dm_admin",
    action_target: ADMIN,
  });
  const hook = await send("POST", "/webhooks", { url: receiverUrl });
  await send("POST", `/webhooks/${hook.id}/test`, {});
  await t.deps.queue.drain();
  await send("POST", "/mcp/keys", { name: "Claude desktop" });
}
