import { randomBytes } from "node:crypto";
import type { Db } from "../../src/db/client.ts";
import {
  holidays,
  responses,
  runParticipants,
  schedules,
  standupRuns,
  workspaceCalendars,
} from "../../src/db/schema.ts";
import { isActiveBlocker } from "../../src/features/standups/index.ts";
import { DEFAULT_QUESTIONS } from "../../src/features/templates/index.ts";
import type { Clock } from "../../src/lib/clock.ts";

export interface ScheduleInput {
  teamId: string;
  channelId: string;
  time: string;
  tz?: string;
  days?: string;
  questions?: string[];
  active?: boolean;
}

/** A schedule row written straight to the database (route tests use the API instead). */
export async function createSchedule(db: Db, clock: Clock, s: ScheduleInput): Promise<string> {
  const id = `S${randomBytes(5).toString("hex").toUpperCase()}`;
  await db.insert(schedules).values({
    id,
    teamId: s.teamId,
    channelId: s.channelId,
    scheduleTime: s.time,
    scheduleTz: s.tz ?? "UTC",
    scheduleDays: s.days ?? "mon,tue,wed,thu,fri",
    questions: s.questions ?? [...DEFAULT_QUESTIONS],
    active: s.active ?? true,
    createdAt: clock.now(),
    updatedAt: clock.now(),
  });
  return id;
}

export async function addHoliday(db: Db, teamId: string, date: string, name = "Holiday"): Promise<void> {
  await db.insert(holidays).values({ teamId, date, name });
}

export interface SeedAnswer {
  answers: [string, string, string];
  mood?: string | null;
  submittedAt?: Date;
}

/**
 * A finished run on one date written straight to the tables: who was asked, who answered what.
 * Returns the run id.
 */
export async function seedRun(
  db: Db,
  s: {
    teamId: string;
    scheduleId: string;
    date: string;
    asked: string[];
    answers: Record<string, SeedAnswer>;
    startsAt?: Date;
  },
): Promise<number> {
  const startsAt = s.startsAt ?? new Date(`${s.date}T09:00:00Z`);
  const [run] = await db
    .insert(standupRuns)
    .values({
      teamId: s.teamId,
      scheduleId: s.scheduleId,
      localDate: s.date,
      channelId: "C0SEED",
      questions: [...DEFAULT_QUESTIONS],
      scheduleTz: "UTC",
      startsAt,
      remindAt: startsAt,
      closesAt: startsAt,
      status: "closed",
      createdAt: startsAt,
    })
    .returning({ id: standupRuns.id });
  const runId = run!.id;
  if (s.asked.length > 0) {
    await db.insert(runParticipants).values(
      s.asked.map((userId) => ({
        runId,
        userId,
        teamId: s.teamId,
        status: (s.answers[userId] ? "answered" : "asked") as "answered" | "asked",
        createdAt: startsAt,
      })),
    );
  }
  for (const [userId, a] of Object.entries(s.answers)) {
    await db.insert(responses).values({
      teamId: s.teamId,
      scheduleId: s.scheduleId,
      runId,
      userId,
      standupDate: s.date,
      answers: [...a.answers],
      yesterday: a.answers[0],
      today: a.answers[1],
      blockers: a.answers[2],
      mood: a.mood ?? null,
      hasBlocker: isActiveBlocker(a.answers[2]),
      submittedAt: a.submittedAt ?? new Date(startsAt.getTime() + 600_000),
    });
  }
  return runId;
}

export async function setWorkspaceTimezone(db: Db, teamId: string, timezone: string): Promise<void> {
  await db
    .insert(workspaceCalendars)
    .values({ teamId, timezone, updatedAt: new Date() })
    .onConflictDoUpdate({ target: workspaceCalendars.teamId, set: { timezone } });
}
