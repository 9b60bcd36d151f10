import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Deps } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { workspaceTimezone } from "../calendar/index.ts";
import { DEFAULT_QUESTIONS } from "../templates/index.ts";
import {
  insertSchedule,
  markScheduleDeleted,
  type SchedulePatch,
  type ScheduleRow,
  selectSchedule,
  selectSchedules,
  selectSchedulesToRun,
  updateScheduleRow,
} from "./schedules.repo.ts";
import { canonicalTimezone, formatDays, parseDays, parseTime } from "./timing.ts";

/** Schedule ids look like Slack ids: "S" and 10 characters of A–Z0–9. */
export const SCHEDULE_ID = /^S[A-Z0-9]{10}$/;
/** Public (C…) and private/legacy group (G…) channel ids; DMs (D…) cannot hold a standup. */
export const CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;
export const MAX_QUESTIONS = 10;
export const MAX_QUESTION_LENGTH = 300;
export const DEFAULT_DAYS = "mon,tue,wed,thu,fri";

export interface ScheduleView {
  id: string;
  channel_id: string;
  schedule_time: string;
  schedule_tz: string;
  schedule_days: string;
  questions: string[];
  active: boolean;
}

export function presentSchedule(row: ScheduleRow): ScheduleView {
  return {
    id: row.id,
    channel_id: row.channelId,
    schedule_time: row.scheduleTime,
    schedule_tz: row.scheduleTz,
    schedule_days: row.scheduleDays,
    questions: [...row.questions],
    active: row.active,
  };
}

// ---- Input ------------------------------------------------------------------------------------
// Every message names its field; the route schema reports the first problem as a 400.

const TZ_MESSAGE = "schedule_tz must be an IANA timezone name such as Europe/Berlin";
const DAYS_MESSAGE = 'schedule_days must be weekdays from mon,tue,wed,thu,fri,sat,sun, as "mon,wed" or ["mon","wed"]';
const QUESTIONS_MESSAGE = `questions must be an array of 1 to ${MAX_QUESTIONS} strings`;

const requiredString = (field: string, typeHint: string) =>
  z.string({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be ${typeHint}`) });

const channelId = requiredString("channel_id", "a string")
  .trim()
  .max(40, "channel_id must be a Slack channel id such as C0123ABCD")
  .regex(CHANNEL_ID, "channel_id must be a Slack channel id such as C0123ABCD");

const scheduleTime = requiredString("schedule_time", "a string in HH:MM format").refine(
  (value) => parseTime(value) !== null,
  "schedule_time must be HH:MM between 00:00 and 23:59",
);

const scheduleTz = z.string({ error: TZ_MESSAGE }).transform((value, ctx) => {
  const tz = value.length <= 64 ? canonicalTimezone(value) : null;
  if (tz !== null) return tz;
  ctx.addIssue({ code: "custom", message: TZ_MESSAGE });
  return z.NEVER;
});

const scheduleDays = z.union([z.string(), z.array(z.string())], { error: DAYS_MESSAGE }).transform((value, ctx) => {
  const days = value.length <= 100 ? parseDays(value) : null;
  if (days !== null) return formatDays(days);
  ctx.addIssue({ code: "custom", message: DAYS_MESSAGE });
  return z.NEVER;
});

const questions = z.array(z.unknown(), { error: QUESTIONS_MESSAGE }).transform((list, ctx) => {
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (list.length < 1 || list.length > MAX_QUESTIONS) return fail(`${QUESTIONS_MESSAGE} (got ${list.length})`);
  const trimmed: string[] = [];
  for (const [i, item] of list.entries()) {
    if (typeof item !== "string") return fail(`questions[${i}] must be a string`);
    const text = item.trim();
    if (text === "") return fail(`questions[${i}] must not be empty`);
    if ([...text].length > MAX_QUESTION_LENGTH) {
      return fail(`questions[${i}] must be at most ${MAX_QUESTION_LENGTH} characters`);
    }
    trimmed.push(text);
  }
  return trimmed;
});

const active = z.boolean({ error: "active must be true or false" });

/** PUT body: every field optional, omitted ones unchanged; unknown fields are dropped. */
export const scheduleUpdateInput = z.object(
  {
    channel_id: channelId.optional(),
    schedule_time: scheduleTime.optional(),
    schedule_tz: scheduleTz.optional(),
    schedule_days: scheduleDays.optional(),
    questions: questions.optional(),
    active: active.optional(),
  },
  { error: "Request body must be a JSON object" },
);

/** POST body: channel_id and schedule_time are required; the rest have defaults. */
export const scheduleCreateInput = scheduleUpdateInput.extend({ channel_id: channelId, schedule_time: scheduleTime });

export type ScheduleUpdate = z.output<typeof scheduleUpdateInput>;
export type ScheduleCreate = z.output<typeof scheduleCreateInput>;

// ---- Use cases --------------------------------------------------------------------------------

type ReadDeps = Pick<Deps, "db">;
type WriteDeps = Pick<Deps, "db" | "clock">;

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** "S" + 10 characters of A–Z0–9 drawn without modulo bias (252 = 7 × 36). */
export function newScheduleId(): string {
  let id = "S";
  while (id.length < 11) {
    for (const byte of randomBytes(16)) {
      if (byte < 252) id += ID_ALPHABET[byte % 36];
      if (id.length === 11) break;
    }
  }
  return id;
}

export async function listSchedules(deps: ReadDeps, teamId: string): Promise<ScheduleView[]> {
  return (await selectSchedules(deps.db, teamId)).map(presentSchedule);
}

/** The workspace's active schedules, oldest first (the App Home lists them). */
export async function listActiveSchedules(deps: ReadDeps, teamId: string): Promise<ScheduleView[]> {
  return (await listSchedules(deps, teamId)).filter((s) => s.active);
}

/** Every active schedule of every installed workspace, as stored: the scheduler's input on each tick. */
export async function schedulesToRun(deps: ReadDeps): Promise<ScheduleRow[]> {
  return selectSchedulesToRun(deps.db);
}

/** A live schedule of the workspace; unknown, malformed, deleted and other workspaces' ids are all 404. */
export async function getSchedule(deps: ReadDeps, teamId: string, id: string): Promise<ScheduleView> {
  const row = SCHEDULE_ID.test(id) ? await selectSchedule(deps.db, teamId, id) : undefined;
  if (!row) throw notFound("Schedule not found");
  return presentSchedule(row);
}

/** Without a timezone the schedule follows the workspace calendar, else UTC. */
async function defaultTimezone(deps: ReadDeps, teamId: string): Promise<string> {
  return canonicalTimezone(await workspaceTimezone(deps, teamId)) ?? "UTC";
}

export async function createSchedule(deps: WriteDeps, teamId: string, input: ScheduleCreate): Promise<ScheduleView> {
  const now = deps.clock.now();
  const values = {
    teamId,
    channelId: input.channel_id,
    scheduleTime: input.schedule_time,
    scheduleTz: input.schedule_tz ?? (await defaultTimezone(deps, teamId)),
    scheduleDays: input.schedule_days ?? DEFAULT_DAYS,
    questions: input.questions ?? [...DEFAULT_QUESTIONS],
    active: input.active ?? true,
    createdAt: now,
    updatedAt: now,
  };
  // 36^10 ids make a clash practically impossible; a few fresh draws cover it anyway.
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await insertSchedule(deps.db, { id: newScheduleId(), ...values });
    if (row) return presentSchedule(row);
  }
  throw new Error("Could not draw an unused schedule id");
}

export async function updateSchedule(
  deps: WriteDeps,
  teamId: string,
  id: string,
  input: ScheduleUpdate,
): Promise<ScheduleView> {
  const patch: SchedulePatch = {};
  if (input.channel_id !== undefined) patch.channelId = input.channel_id;
  if (input.schedule_time !== undefined) patch.scheduleTime = input.schedule_time;
  if (input.schedule_tz !== undefined) patch.scheduleTz = input.schedule_tz;
  if (input.schedule_days !== undefined) patch.scheduleDays = input.schedule_days;
  if (input.questions !== undefined) patch.questions = input.questions;
  if (input.active !== undefined) patch.active = input.active;
  if (Object.keys(patch).length === 0) return getSchedule(deps, teamId, id);
  const row = SCHEDULE_ID.test(id) ? await updateScheduleRow(deps.db, teamId, id, patch, deps.clock.now()) : undefined;
  if (!row) throw notFound("Schedule not found");
  return presentSchedule(row);
}

/** Soft delete: past runs and answers stay, the schedule stops running and leaves every list. */
export async function deleteSchedule(deps: WriteDeps, teamId: string, id: string): Promise<{ ok: true }> {
  const deleted = SCHEDULE_ID.test(id) && (await markScheduleDeleted(deps.db, teamId, id, deps.clock.now()));
  if (!deleted) throw notFound("Schedule not found");
  return { ok: true };
}
