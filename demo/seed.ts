import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { upsertInstallation } from "../src/chat/installations.repo.ts";
import { responses, runParticipants, schedules, standupRuns } from "../src/db/schema.ts";
import type { Deps } from "../src/deps.ts";
import { upsertPeople } from "../src/features/members/index.ts";
import { runStartFor } from "../src/features/schedules/index.ts";
import { isActiveBlocker } from "../src/features/standups/index.ts";
import { DEFAULT_QUESTIONS } from "../src/features/templates/index.ts";
import { encryptSecret } from "../src/lib/crypto.ts";
import type { FakeSlack } from "../test/support/fake-slack.ts";
import {
  BLOCKERS_NONE,
  BLOCKERS_REAL,
  DEMO_BOT,
  DEMO_CHANNELS,
  DEMO_PEOPLE,
  DEMO_TEAM,
  MOOD_WEIGHTS,
  pick,
  pickWeighted,
  rng,
  TODAY,
  YESTERDAY,
} from "./people.ts";

export const DAILY_SCHEDULE_ID = "SDEMODAILY1";
/** Asks each person at 09:30 in their own Slack timezone: the simulated people span Auckland to Los Angeles. */
export const GLOBAL_SCHEDULE_ID = "SDEMOGLOBL1";
const HISTORY_DAYS = 60;

/** The simulated Slack side lives in memory: it is rebuilt, identically, at every start. */
export function populateFakeSlack(fake: FakeSlack): void {
  fake.addTeam({
    id: DEMO_TEAM.id,
    name: DEMO_TEAM.name,
    domain: DEMO_TEAM.domain,
    botToken: DEMO_BOT.token,
    botUserId: DEMO_BOT.userId,
  });
  for (const p of DEMO_PEOPLE) {
    fake.addUser(DEMO_TEAM.id, {
      id: p.id,
      name: p.name,
      real_name: p.realName,
      email: `${p.name}@northwind.example`,
      tz: p.tz,
      ...(p.admin ? { is_admin: true } : {}),
    });
  }
  for (const c of DEMO_CHANNELS) {
    fake.addChannel(DEMO_TEAM.id, {
      id: c.id,
      name: c.name,
      members: [...DEMO_PEOPLE.map((p) => p.id), DEMO_BOT.userId],
    });
  }
}

export async function isSeeded(deps: Deps): Promise<boolean> {
  const found = await deps.db.execute(sql`select 1 from installations where team_id = ${DEMO_TEAM.id}`);
  return (found as unknown as { rows: unknown[] }).rows.length > 0;
}

/**
 * Installation, members, the daily schedule with 60 days of answers from a fixed seed, and a #general standup
 * in each member's own timezone.
 */
export async function seedDemo(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await upsertInstallation(
    deps.db,
    {
      teamId: DEMO_TEAM.id,
      teamName: DEMO_TEAM.name,
      botUserId: DEMO_BOT.userId,
      botTokenEnc: encryptSecret(deps.keys.tokenEncryption, DEMO_BOT.token),
      scopes: "chat:write,commands,reactions:write,users:read,channels:read",
      installerUserId: DEMO_PEOPLE[0]!.id,
    },
    now,
  );
  await upsertPeople(
    deps.db,
    DEMO_TEAM.id,
    DEMO_PEOPLE.map((p) => ({
      userId: p.id,
      realName: p.realName,
      displayName: p.name,
      email: `${p.name}@northwind.example`,
      tz: p.tz,
      active: true,
      slackAdmin: Boolean(p.admin),
    })),
    now,
  );
  const timing = { time: "09:30", tz: "Europe/London" };
  await deps.db.insert(schedules).values({
    id: DAILY_SCHEDULE_ID,
    teamId: DEMO_TEAM.id,
    channelId: DEMO_CHANNELS[0]!.id,
    scheduleTime: timing.time,
    scheduleTz: timing.tz,
    scheduleDays: "mon,tue,wed,thu,fri",
    questions: [...DEFAULT_QUESTIONS],
    active: true,
    createdAt: now,
    updatedAt: now,
  });

  await deps.db.insert(schedules).values({
    id: GLOBAL_SCHEDULE_ID,
    teamId: DEMO_TEAM.id,
    channelId: DEMO_CHANNELS[1]!.id,
    name: "Global standup",
    scheduleTime: "09:30",
    scheduleTz: timing.tz,
    scheduleDays: "mon,tue,wed,thu,fri",
    questions: [...DEFAULT_QUESTIONS],
    askInMemberTimezone: true,
    active: true,
    timingChangedAt: now,
    createdAt: now,
    updatedAt: now,
  });

  const r = rng(20260301);
  const today = DateTime.fromJSDate(now, { zone: timing.tz }).startOf("day");
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const day = today.minus({ days: back });
    if (day.weekday > 5) continue;
    const date = day.toISODate()!;
    const startsAt = runStartFor(timing, date).toJSDate();
    const [run] = await deps.db
      .insert(standupRuns)
      .values({
        teamId: DEMO_TEAM.id,
        scheduleId: DAILY_SCHEDULE_ID,
        localDate: date,
        channelId: DEMO_CHANNELS[0]!.id,
        questions: [...DEFAULT_QUESTIONS],
        scheduleTz: timing.tz,
        startsAt,
        remindAt: new Date(startsAt.getTime() + 2 * 3600_000),
        closesAt: day.plus({ days: 1 }).toJSDate(),
        status: "closed",
        parentTs: `${Math.floor(startsAt.getTime() / 1000)}.000100`,
        closedAt: day.plus({ days: 1 }).toJSDate(),
        createdAt: startsAt,
      })
      .returning({ id: standupRuns.id });
    const answered = DEMO_PEOPLE.filter(() => r() < 0.82);
    await deps.db.insert(runParticipants).values(
      DEMO_PEOPLE.map((p) => ({
        runId: run!.id,
        userId: p.id,
        teamId: DEMO_TEAM.id,
        status: (answered.includes(p) ? "answered" : "asked") as "answered" | "asked",
        createdAt: startsAt,
      })),
    );
    if (answered.length === 0) continue;
    await deps.db.insert(responses).values(
      answered.map((p) => {
        const blockers = r() < 0.12 ? pick(r, BLOCKERS_REAL) : pick(r, BLOCKERS_NONE);
        const answers = [pick(r, YESTERDAY), pick(r, TODAY), blockers];
        return {
          teamId: DEMO_TEAM.id,
          scheduleId: DAILY_SCHEDULE_ID,
          runId: run!.id,
          userId: p.id,
          standupDate: date,
          answers,
          yesterday: answers[0]!,
          today: answers[1]!,
          blockers,
          mood: pickWeighted(r, MOOD_WEIGHTS),
          hasBlocker: isActiveBlocker(blockers),
          submittedAt: new Date(startsAt.getTime() + Math.floor(r() * 3 * 3600_000)),
        };
      }),
    );
  }
}

/** A standup that runs a minute from now, so the demo shows a live run every few minutes. */
export async function schedulePulse(deps: Deps): Promise<string> {
  const now = DateTime.fromJSDate(deps.clock.now(), { zone: "utc" });
  const at = now.plus({ minutes: 1 });
  await deps.db.execute(
    sql`update schedules set deleted_at = ${now.toJSDate().toISOString()} where team_id = ${DEMO_TEAM.id} and id like 'SPULSE%' and deleted_at is null`,
  );
  const id = `SPULSE${randomBytes(3).toString("hex").toUpperCase().slice(0, 5)}`;
  await deps.db.insert(schedules).values({
    id,
    teamId: DEMO_TEAM.id,
    channelId: DEMO_CHANNELS[0]!.id,
    scheduleTime: at.toFormat("HH:mm"),
    scheduleTz: "UTC",
    scheduleDays: "mon,tue,wed,thu,fri,sat,sun",
    questions: ["What did you get done since the last check-in?", "What's next?", "Anything in your way?"],
    active: true,
    createdAt: now.toJSDate(),
    updatedAt: now.toJSDate(),
  });
  return id;
}
