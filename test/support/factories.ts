import { randomBytes } from "node:crypto";
import type { Db } from "../../src/db/client.ts";
import { holidays, schedules } from "../../src/db/schema.ts";
import { DEFAULT_QUESTIONS } from "../../src/features/templates/templates.ts";
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
