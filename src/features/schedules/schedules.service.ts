import { randomBytes } from "node:crypto";
import { type QuestionDetail, questionDetailsOf, textQuestion } from "../../contract/questions.ts";
import type { Deps } from "../../deps.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { workspaceTimezone } from "../calendar/index.ts";
import { requireChannel } from "../channels/index.ts";
import { DEFAULT_QUESTIONS } from "../templates/index.ts";
import type { StandupDeletedEvent } from "./events.ts";
import { presentSchedules, type ScheduleView } from "./schedules.details.ts";
import {
  blockerQuestionProblem,
  DEFAULT_ANSWER_EARLY_HOURS,
  DEFAULT_BLOCKER_QUESTION,
  DEFAULT_DAYS,
  DEFAULT_REMINDER_MINUTES,
  type ScheduleCreate,
  type ScheduleUpdate,
} from "./schedules.input.ts";
import { canBeBlockerQuestion, givenQuestions, storedDetails } from "./schedules.questions.ts";
import {
  insertSchedule,
  lockSchedule,
  markScheduleDeleted,
  type SchedulePatch,
  type ScheduleRow,
  selectSchedule,
  selectSchedules,
  selectSchedulesToRun,
  updateScheduleRow,
} from "./schedules.repo.ts";
import { canonicalTimezone } from "./timing.ts";

/** Schedule ids look like Slack ids: "S" and 10 characters of A–Z0–9. */
export const SCHEDULE_ID = /^S[A-Z0-9]{10}$/;

type ReadDeps = Pick<Deps, "db">;
/** Presenting a schedule reads the clock (next run) and Slack (channel names and members). */
type ViewDeps = Pick<Deps, "db" | "clock" | "chat">;

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

/** Every live schedule of the workspace with its name, next and last run and participant count, oldest first. */
export async function listSchedules(deps: ViewDeps, teamId: string): Promise<ScheduleView[]> {
  return presentSchedules(deps, teamId, await selectSchedules(deps.db, teamId));
}

/** The live schedules as stored, oldest first, for callers that need no Slack data (counts, App Home). */
export async function listScheduleRows(deps: ReadDeps, teamId: string): Promise<ScheduleRow[]> {
  return selectSchedules(deps.db, teamId);
}

/** Every active schedule of every installed workspace, as stored: the scheduler's input on each tick. */
export async function schedulesToRun(deps: ReadDeps): Promise<ScheduleRow[]> {
  return selectSchedulesToRun(deps.db);
}

/** A live schedule of the workspace as stored; unknown, malformed, deleted and other workspaces' ids are all 404. */
export async function findSchedule(deps: ReadDeps, teamId: string, id: string): Promise<ScheduleRow> {
  const row = SCHEDULE_ID.test(id) ? await selectSchedule(deps.db, teamId, id) : undefined;
  if (!row) throw notFound("Schedule not found");
  return row;
}

async function present(deps: ViewDeps, teamId: string, row: ScheduleRow): Promise<ScheduleView> {
  const [view] = await presentSchedules(deps, teamId, [row]);
  return view!;
}

export async function getSchedule(deps: ViewDeps, teamId: string, id: string): Promise<ScheduleView> {
  return present(deps, teamId, await findSchedule(deps, teamId, id));
}

/** Without a timezone the schedule follows the workspace calendar, else UTC. */
async function defaultTimezone(deps: ReadDeps, teamId: string): Promise<string> {
  return canonicalTimezone(await workspaceTimezone(deps, teamId)) ?? "UTC";
}

/**
 * The channel a schedule posts in must be one of the workspace's that Slack shows the app; a public channel the
 * bot is not in is joined, so the run can post its thread there.
 */
async function requireStandupChannel(deps: ViewDeps, teamId: string, channelId: string): Promise<void> {
  await requireChannel(deps, teamId, channelId, "channel_id", { join: true });
}

/**
 * The questions (texts and stored details) and the blocker question: as given, else the third when there is one
 * and it can be (text, not anonymous); a 400 when a given one does not fit.
 */
function questionsOf(input: ScheduleCreate): {
  questions: string[];
  questionDetails: QuestionDetail[] | null;
  blockerQuestion: number | null;
} {
  const details = givenQuestions(input) ?? DEFAULT_QUESTIONS.map(textQuestion);
  const blockerQuestion =
    input.blocker_question !== undefined
      ? input.blocker_question
      : canBeBlockerQuestion(details[DEFAULT_BLOCKER_QUESTION - 1])
        ? DEFAULT_BLOCKER_QUESTION
        : null;
  const problem = blockerQuestionProblem(blockerQuestion, details);
  if (problem) throw badRequest(problem);
  return { questions: details.map((d) => d.text), questionDetails: storedDetails(details), blockerQuestion };
}

export async function createSchedule(deps: ViewDeps, teamId: string, input: ScheduleCreate): Promise<ScheduleView> {
  questionsOf(input); // the body's own problems answer before Slack is asked about the channel
  await requireStandupChannel(deps, teamId, input.channel_id);
  return present(deps, teamId, await storeSchedule(deps, teamId, input));
}

/**
 * Creates the schedule and returns the stored row, without asking Slack: neither the channel check nor the
 * look-ups a view needs (demo, benchmarks, test factories, which bring channels of their own).
 */
export async function storeSchedule(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  input: ScheduleCreate,
): Promise<ScheduleRow> {
  const now = deps.clock.now();
  const { questions, questionDetails, blockerQuestion } = questionsOf(input);
  const values = {
    teamId,
    channelId: input.channel_id,
    scheduleTime: input.schedule_time,
    scheduleTz: input.schedule_tz ?? (await defaultTimezone(deps, teamId)),
    scheduleDays: input.schedule_days ?? DEFAULT_DAYS,
    questions,
    questionDetails,
    answerEarlyHours: input.answer_early_hours ?? DEFAULT_ANSWER_EARLY_HOURS,
    active: input.active ?? true,
    name: input.name ?? "",
    blockerQuestion,
    reminderMinutes: input.reminder_minutes !== undefined ? input.reminder_minutes : DEFAULT_REMINDER_MINUTES,
    askInMemberTimezone: input.ask_in_member_timezone ?? false,
    kudosField: input.kudos_field ?? false,
    aiSummary: input.ai_summary ?? false,
    // A new schedule runs from its first start after now, never for a time of today that has already passed.
    timingChangedAt: now,
    createdAt: now,
    updatedAt: now,
  };
  // 36^10 ids make a clash practically impossible; a few fresh draws cover it anyway.
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await insertSchedule(deps.db, { id: newScheduleId(), ...values });
    if (row) return row;
  }
  throw new Error("Could not draw an unused schedule id");
}

/**
 * The columns an edit changes, decided from the row as it stands (locked). A change of time, zone, days or
 * member-timezone mode, or a resume, restarts the timing: dates whose start has passed do not run. Renames,
 * question edits and pauses leave it alone.
 */
export function schedulePatch(current: ScheduleRow, input: ScheduleUpdate, now: Date): SchedulePatch {
  const patch: SchedulePatch = {};
  const changed = <K extends keyof ScheduleRow>(key: K, value: ScheduleRow[K] | undefined): value is ScheduleRow[K] =>
    value !== undefined && value !== current[key];
  if (changed("channelId", input.channel_id)) patch.channelId = input.channel_id;
  if (changed("scheduleTime", input.schedule_time)) patch.scheduleTime = input.schedule_time;
  if (changed("scheduleTz", input.schedule_tz)) patch.scheduleTz = input.schedule_tz;
  if (changed("scheduleDays", input.schedule_days)) patch.scheduleDays = input.schedule_days;
  if (changed("active", input.active)) patch.active = input.active;
  if (changed("askInMemberTimezone", input.ask_in_member_timezone)) {
    patch.askInMemberTimezone = input.ask_in_member_timezone;
  }
  if (changed("name", input.name)) patch.name = input.name;
  if (changed("kudosField", input.kudos_field)) patch.kudosField = input.kudos_field;
  if (changed("aiSummary", input.ai_summary)) patch.aiSummary = input.ai_summary;
  if (input.reminder_minutes !== undefined) patch.reminderMinutes = input.reminder_minutes;
  if (changed("answerEarlyHours", input.answer_early_hours)) patch.answerEarlyHours = input.answer_early_hours;
  const given = givenQuestions(input, current);
  if (given !== undefined) {
    patch.questions = given.map((d) => d.text);
    patch.questionDetails = storedDetails(given);
  }

  const details = given ?? questionDetailsOf(current.questions, current.questionDetails);
  if (input.blocker_question !== undefined) {
    const problem = blockerQuestionProblem(input.blocker_question, details);
    if (problem) throw badRequest(problem);
    patch.blockerQuestion = input.blocker_question;
  } else if (current.blockerQuestion !== null && !canBeBlockerQuestion(details[current.blockerQuestion - 1])) {
    // The blocker question was removed (or made typed or anonymous) by this edit: none until one is chosen.
    patch.blockerQuestion = null;
  }

  const retimed =
    patch.scheduleTime !== undefined ||
    patch.scheduleTz !== undefined ||
    patch.scheduleDays !== undefined ||
    patch.askInMemberTimezone !== undefined ||
    patch.active === true;
  if (retimed) patch.timingChangedAt = now;
  return patch;
}

export async function updateSchedule(
  deps: ViewDeps,
  teamId: string,
  id: string,
  input: ScheduleUpdate,
): Promise<ScheduleView> {
  const now = deps.clock.now();
  const before = await findSchedule(deps, teamId, id);
  if (input.channel_id !== undefined && input.channel_id !== before.channelId) {
    // The body's own problems answer first (schedulePatch is pure); Slack is asked outside the transaction.
    // A channel kept as it is is not checked again: a standup whose channel was archived stays editable (and
    // should another edit move the channel meanwhile, this one puts back the channel it read, stored before).
    schedulePatch(before, input, now);
    await requireStandupChannel(deps, teamId, input.channel_id);
  }
  const row = await deps.db.transaction(async (tx) => {
    const current = await lockSchedule(tx, teamId, id);
    if (!current) return undefined;
    const patch = schedulePatch(current, input, now);
    if (Object.keys(patch).length === 0) return current;
    return updateScheduleRow(tx, teamId, id, patch, now);
  });
  if (!row) throw notFound("Schedule not found");
  return present(deps, teamId, row);
}

/**
 * Soft delete: past runs and answers stay, the schedule stops running and leaves every list. `standup.deleted` is
 * emitted in the same transaction, so what hangs on this standup alone (its workflow rules) goes with it.
 */
export async function deleteSchedule(
  deps: Pick<Deps, "db" | "clock" | "events">,
  teamId: string,
  id: string,
): Promise<{ ok: true }> {
  if (!SCHEDULE_ID.test(id)) throw notFound("Schedule not found");
  const now = deps.clock.now();
  const deleted = await deps.db.transaction(async (tx) => {
    if (!(await markScheduleDeleted(tx, teamId, id, now))) return false;
    const data: StandupDeletedEvent = { scheduleId: id };
    await deps.events.emit(tx, { type: "standup.deleted", teamId, data, at: now });
    return true;
  });
  if (!deleted) throw notFound("Schedule not found");
  return { ok: true };
}
