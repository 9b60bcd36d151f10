import { randomBytes } from "node:crypto";
import type { Db } from "../../src/db/client.ts";
import { holidays, schedules, workspaceCalendars } from "../../src/db/schema.ts";
import { importHistory } from "../../src/features/standups/index.ts";
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

/** A holiday row; `skipsStandups: false` is a Celebrations admin's (it moves Celebrations only). */
export async function addHoliday(
  db: Db,
  teamId: string,
  date: string,
  name = "Holiday",
  opts: { skipsStandups?: boolean } = {},
): Promise<void> {
  await db.insert(holidays).values({ teamId, date, name, skipsStandups: opts.skipsStandups ?? true });
}

export interface SeedAnswer {
  answers: [string, string, string];
  mood?: string | null;
  submittedAt?: Date;
}

/**
 * A finished run on one date, imported the way the standups feature imports history: who was asked,
 * who answered what.
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
): Promise<void> {
  const startsAt = s.startsAt ?? new Date(`${s.date}T09:00:00Z`);
  const unasked = Object.keys(s.answers).filter((userId) => !s.asked.includes(userId));
  if (unasked.length > 0) throw new Error(`seedRun: answers from members the run did not ask: ${unasked.join(", ")}`);
  await importHistory(db, s.teamId, [
    {
      scheduleId: s.scheduleId,
      channelId: "C0SEED",
      localDate: s.date,
      questions: [...DEFAULT_QUESTIONS],
      scheduleTz: "UTC",
      startsAt,
      remindAt: startsAt,
      closesAt: startsAt,
      asked: s.asked.map((userId) => {
        const a = s.answers[userId];
        if (!a) return { userId };
        return {
          userId,
          answer: {
            answers: [...a.answers],
            mood: a.mood ?? null,
            submittedAt: a.submittedAt ?? new Date(startsAt.getTime() + 600_000),
          },
        };
      }),
    },
  ]);
}

export async function setWorkspaceTimezone(db: Db, teamId: string, timezone: string): Promise<void> {
  await db
    .insert(workspaceCalendars)
    .values({ teamId, timezone, updatedAt: new Date() })
    .onConflictDoUpdate({ target: workspaceCalendars.teamId, set: { timezone } });
}
