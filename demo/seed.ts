import { DateTime } from "luxon";
import type { FakeSlack } from "../dev/fake-slack/index.ts";
import { findInstallation, upsertInstallation } from "../src/chat/installations.repo.ts";
import type { Deps } from "../src/deps.ts";
import { upsertPeople } from "../src/features/members/index.ts";
import {
  deleteSchedule,
  listScheduleRows,
  runStartFor,
  type ScheduleRow,
  scheduleCreateInput,
  storeSchedule,
} from "../src/features/schedules/index.ts";
import { importHistory, type PastRun } from "../src/features/standups/index.ts";
import { encryptSecret } from "../src/lib/crypto.ts";
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

const HISTORY_DAYS = 60;
const STANDUP_CHANNEL = DEMO_CHANNELS[0]!.id;
// The live standups are told apart from the daily one (and from any the visitor makes) by their questions.
const PULSE_QUESTIONS = ["What did you get done since the last check-in?", "What's next?", "Anything in your way?"];

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
  return (await findInstallation(deps.db, DEMO_TEAM.id)) !== undefined;
}

/**
 * Installation, members, the daily schedule and 60 days of answers from a fixed seed, in one transaction:
 * a start that fails halfway leaves nothing, and the next start seeds again.
 */
export async function seedDemo(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await upsertInstallation(
      tx,
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
      tx,
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
    const daily = await storeSchedule(
      { db: tx, clock: deps.clock },
      DEMO_TEAM.id,
      scheduleCreateInput.parse({ channel_id: STANDUP_CHANNEL, schedule_time: "09:30", schedule_tz: "Europe/London" }),
    );
    // Asks each person at 09:30 in their own Slack timezone: the simulated people span Auckland to Los Angeles.
    await storeSchedule(
      { db: tx, clock: deps.clock },
      DEMO_TEAM.id,
      scheduleCreateInput.parse({
        channel_id: DEMO_CHANNELS[1]!.id,
        name: "Global standup",
        schedule_time: "09:30",
        ask_in_member_timezone: true,
      }),
    );
    // Sixty days of 25 people through submitResponse would post to Slack and queue a reply per answer:
    // history is imported in bulk instead, stored the way submitResponse stores answers.
    await importHistory(tx, DEMO_TEAM.id, pastRuns(daily, now));
  });
}

/** The daily standup's weekdays before today, each closed the next midnight, ~82% answered. */
function* pastRuns(daily: ScheduleRow, now: Date): Generator<PastRun> {
  const r = rng(20260301);
  const timing = { time: daily.scheduleTime, tz: daily.scheduleTz };
  const today = DateTime.fromJSDate(now, { zone: timing.tz }).startOf("day");
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const day = today.minus({ days: back });
    if (day.weekday > 5) continue;
    const date = day.toISODate()!;
    const startsAt = runStartFor(timing, date).toJSDate();
    const closedAt = day.plus({ days: 1 }).toJSDate();
    const answered = new Set(DEMO_PEOPLE.filter(() => r() < 0.82).map((p) => p.id));
    yield {
      scheduleId: daily.id,
      channelId: daily.channelId,
      localDate: date,
      questions: daily.questions,
      scheduleTz: timing.tz,
      startsAt,
      remindAt: new Date(startsAt.getTime() + 2 * 3600_000),
      closesAt: closedAt,
      closedAt,
      parentTs: `${Math.floor(startsAt.getTime() / 1000)}.000100`,
      asked: DEMO_PEOPLE.map((p) => {
        if (!answered.has(p.id)) return { userId: p.id };
        const blockers = r() < 0.12 ? pick(r, BLOCKERS_REAL) : pick(r, BLOCKERS_NONE);
        const answers = [pick(r, YESTERDAY), pick(r, TODAY), blockers];
        const mood = pickWeighted(r, MOOD_WEIGHTS);
        const submittedAt = new Date(startsAt.getTime() + Math.floor(r() * 3 * 3600_000));
        return { userId: p.id, answer: { answers, mood, submittedAt } };
      }),
    };
  }
}

/** A standup that runs a minute from now, so the demo shows a live run every few minutes. */
export async function schedulePulse(deps: Deps): Promise<string> {
  const at = DateTime.fromJSDate(deps.clock.now(), { zone: "utc" }).plus({ minutes: 1 });
  for (const s of await listScheduleRows(deps, DEMO_TEAM.id)) {
    if (isPulse(s)) await deleteSchedule(deps, DEMO_TEAM.id, s.id);
  }
  const pulse = await storeSchedule(
    deps,
    DEMO_TEAM.id,
    scheduleCreateInput.parse({
      channel_id: STANDUP_CHANNEL,
      schedule_time: at.toFormat("HH:mm"),
      schedule_tz: "UTC",
      schedule_days: "mon,tue,wed,thu,fri,sat,sun",
      questions: PULSE_QUESTIONS,
    }),
  );
  return pulse.id;
}

function isPulse(s: ScheduleRow): boolean {
  return s.questions.length === PULSE_QUESTIONS.length && s.questions.every((q, i) => q === PULSE_QUESTIONS[i]);
}
