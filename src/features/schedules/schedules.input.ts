import { z } from "zod";
import {
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MIN_OPTIONS,
  QUESTION_TYPES,
  type QuestionDetail,
} from "../../contract/questions.ts";
import {
  canBeBlockerQuestion,
  MAX_BOUND,
  MAX_BOUND_DECIMALS,
  MAX_QUESTION_LENGTH,
  parseQuestion,
  type QuestionList,
} from "./schedules.questions.ts";
import { canonicalTimezone, formatDays, parseDays, parseTime } from "./timing.ts";

/**
 * The request bodies of POST and PUT. Every message names its field; the route schema reports the first
 * problem as a 400. Checks that need two fields (the blocker question against the questions) are the service's.
 */

/** Public (C…) and private/legacy group (G…) channel ids; DMs (D…) cannot hold a standup. */
export const CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;
export const MAX_QUESTIONS = 10;
export { MAX_QUESTION_LENGTH };
export const MAX_NAME_LENGTH = 80;
export const DEFAULT_DAYS = "mon,tue,wed,thu,fri";
/** The reminder goes out this many minutes after the ask unless the schedule says otherwise. */
export const DEFAULT_REMINDER_MINUTES = 120;
export const MIN_REMINDER_MINUTES = 15;
export const MAX_REMINDER_MINUTES = 600;
/** The built-in questions ask about blockers third. */
export const DEFAULT_BLOCKER_QUESTION = 3;
/** Members may answer a run ahead from this many hours before it (issue 25's default). */
export const DEFAULT_ANSWER_EARLY_HOURS = 12;
export const MAX_ANSWER_EARLY_HOURS = 16;

const TZ_MESSAGE = "schedule_tz must be an IANA timezone name such as Europe/Berlin";
const DAYS_MESSAGE = 'schedule_days must be weekdays from mon,tue,wed,thu,fri,sat,sun, as "mon,wed" or ["mon","wed"]';
const QUESTIONS_MESSAGE = `questions must be an array of 1 to ${MAX_QUESTIONS} questions (strings or objects)`;
const DETAILS_MESSAGE = `question_details must be an array of 1 to ${MAX_QUESTIONS} objects {text, type, options, min, max, required, anonymous}`;
const EARLY_MESSAGE = `answer_early_hours must be whole hours from 0 to ${MAX_ANSWER_EARLY_HOURS}`;
const NAME_MESSAGE = `name must be a single line of 1 to ${MAX_NAME_LENGTH} characters, or null for the default`;
const REMINDER_MESSAGE = `reminder_minutes must be whole minutes from ${MIN_REMINDER_MINUTES} to ${MAX_REMINDER_MINUTES}, or null for no reminder`;
const BLOCKER_MESSAGE = "blocker_question must be the number (1, 2, …) of one of the questions, or null for none";

const requiredString = (field: string, typeHint: string) =>
  z.string({ error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be ${typeHint}`) });

const channelId = requiredString("channel_id", "a string")
  .trim()
  .max(40, "channel_id must be a Slack channel id such as C0123ABCD")
  .regex(CHANNEL_ID, "channel_id must be a Slack channel id such as C0123ABCD");

const scheduleTime = requiredString("schedule_time", "a string in HH:MM format")
  .refine((value) => parseTime(value) !== null, "schedule_time must be HH:MM between 00:00 and 23:59")
  .meta({ description: "Local time of day, HH:MM (24 h)", pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" });

const scheduleTz = z
  .string({ error: TZ_MESSAGE })
  .meta({ description: "IANA timezone such as Europe/Berlin; default: the workspace calendar's, else UTC" })
  .transform((value, ctx) => {
    const tz = value.length <= 64 ? canonicalTimezone(value) : null;
    if (tz !== null) return tz;
    ctx.addIssue({ code: "custom", message: TZ_MESSAGE });
    return z.NEVER;
  });

const scheduleDays = z
  .union([z.string(), z.array(z.string())], { error: DAYS_MESSAGE })
  .meta({ description: 'Weekdays from mon,tue,wed,thu,fri,sat,sun, as "mon,wed" or ["mon","wed"]; default mon–fri' })
  .transform((value, ctx) => {
    const days = value.length <= 100 ? parseDays(value) : null;
    if (days !== null) return formatDays(days);
    ctx.addIssue({ code: "custom", message: DAYS_MESSAGE });
    return z.NEVER;
  });

const BOUND_HINT = ` (at most ${MAX_BOUND} either way, ${MAX_BOUND_DECIMALS} decimal places)`;

/** The JSON Schema of one item, for the document: the transform below is what checks it. */
const QUESTION_ITEM_SCHEMA = {
  anyOf: [
    { type: "string", minLength: 1, maxLength: MAX_QUESTION_LENGTH, description: "A required text question" },
    {
      type: "object",
      required: ["text"],
      properties: {
        text: { type: "string", minLength: 1, maxLength: MAX_QUESTION_LENGTH },
        type: { type: "string", enum: [...QUESTION_TYPES], default: "text" },
        options: {
          type: "array",
          items: { type: "string", minLength: 1, maxLength: MAX_OPTION_LENGTH },
          minItems: MIN_OPTIONS,
          maxItems: MAX_OPTIONS,
          description: "single_choice and multiple_choice only: distinct option texts",
        },
        min: { type: ["number", "null"], description: `number only: the smallest answer allowed${BOUND_HINT}` },
        max: { type: ["number", "null"], description: `number only: the largest answer allowed${BOUND_HINT}` },
        required: { type: "boolean", default: true },
        anonymous: {
          type: "boolean",
          default: false,
          description: "Answers are stored without the member and shown only as aggregates of 5 or more",
        },
      },
    },
  ],
};

/** Every question in full ({text, type, required, anonymous, …}); in `questions` a string is a required text question. */
function questionList(field: "questions" | "question_details", message: string, description: string) {
  return z
    .array(z.unknown(), { error: message })
    .meta({
      description,
      items: field === "questions" ? QUESTION_ITEM_SCHEMA : QUESTION_ITEM_SCHEMA.anyOf[1],
      minItems: 1,
      maxItems: MAX_QUESTIONS,
    })
    .transform((list, ctx): QuestionList => {
      if (list.length < 1 || list.length > MAX_QUESTIONS) {
        ctx.addIssue({ code: "custom", message: `${message} (got ${list.length})` });
        return z.NEVER;
      }
      const details = [];
      for (const [i, item] of list.entries()) {
        const parsed = parseQuestion(item, i, field);
        if (!parsed.ok) {
          ctx.addIssue({ code: "custom", message: parsed.message });
          return z.NEVER;
        }
        details.push(parsed.detail);
      }
      return { details, strings: list.every((item) => typeof item === "string") };
    });
}

const questions = questionList(
  "questions",
  QUESTIONS_MESSAGE,
  `${QUESTIONS_MESSAGE}, each text at most ${MAX_QUESTION_LENGTH} characters; default the three built-in ones. ` +
    "On PUT, a list of strings whose texts equal the current questions keeps their types (a question whose text " +
    "changed becomes a required text question); send question_details to change types",
);

const questionDetails = questionList(
  "question_details",
  DETAILS_MESSAGE,
  `${DETAILS_MESSAGE}: the shape GET shows. Wins over questions, whose texts it must then equal one by one ` +
    "(else 400); alone, it sets the questions too",
);

const active = z.boolean({ error: "active must be true or false" });

/** A name of its own, or null: "" is stored, and read back as "#<channel> standup". */
const name = z.union([z.string(), z.null()], { error: NAME_MESSAGE }).transform((value, ctx) => {
  if (value === null) return "";
  const text = value.trim();
  const length = [...text].length;
  if (length >= 1 && length <= MAX_NAME_LENGTH && !/[\r\n\u2028\u2029]/.test(text)) return text;
  ctx.addIssue({ code: "custom", message: NAME_MESSAGE });
  return z.NEVER;
});

const blockerQuestion = z.union([z.number().int().min(1).max(MAX_QUESTIONS), z.null()], { error: BLOCKER_MESSAGE });

const reminderMinutes = z.union([z.number().int().min(MIN_REMINDER_MINUTES).max(MAX_REMINDER_MINUTES), z.null()], {
  error: REMINDER_MESSAGE,
});

const askInMemberTimezone = z.boolean({ error: "ask_in_member_timezone must be true or false" });

const kudosField = z.boolean({ error: "kudos_field must be true or false" });

const aiSummary = z.boolean({ error: "ai_summary must be true or false" });

const answerEarlyHours = z
  .number({ error: EARLY_MESSAGE })
  .int(EARLY_MESSAGE)
  .min(0, EARLY_MESSAGE)
  .max(MAX_ANSWER_EARLY_HOURS, EARLY_MESSAGE);

/** PUT body: every field optional, omitted ones unchanged; unknown (and read-only) fields are dropped. */
export const scheduleUpdateInput = z.object(
  {
    channel_id: channelId.optional(),
    schedule_time: scheduleTime.optional(),
    schedule_tz: scheduleTz.optional(),
    schedule_days: scheduleDays.optional(),
    questions: questions.optional(),
    question_details: questionDetails.optional(),
    active: active.optional(),
    name: name.optional().describe(`1–${MAX_NAME_LENGTH} characters; null restores the default "#<channel> standup"`),
    blocker_question: blockerQuestion
      .optional()
      .describe(
        "1-based number of the question whose answer is the blocker (a required text question, not anonymous); null for none",
      ),
    reminder_minutes: reminderMinutes
      .optional()
      .describe(
        `Minutes after the ask that one reminder goes out (${MIN_REMINDER_MINUTES}–${MAX_REMINDER_MINUTES}); null for none`,
      ),
    ask_in_member_timezone: askInMemberTimezone
      .optional()
      .describe("Ask each participant at schedule_time in their own Slack timezone"),
    kudos_field: kudosField
      .optional()
      .describe("Add an optional shout-out to the answer modal that gives kudos (default false)"),
    ai_summary: aiSummary
      .optional()
      .describe("Post an AI summary in the run's thread at close, when a model is configured (default false)"),
    answer_early_hours: answerEarlyHours
      .optional()
      .describe(
        `From this many hours before a run members may answer it ahead (0–${MAX_ANSWER_EARLY_HOURS}; 0: not ahead; default ${DEFAULT_ANSWER_EARLY_HOURS})`,
      ),
  },
  { error: "Request body must be a JSON object" },
);

/** POST body: channel_id and schedule_time are required; the rest have defaults. */
export const scheduleCreateInput = scheduleUpdateInput.extend({ channel_id: channelId, schedule_time: scheduleTime });

export type ScheduleUpdate = z.output<typeof scheduleUpdateInput>;
export type ScheduleCreate = z.output<typeof scheduleCreateInput>;

/**
 * Why `blocker` does not point at a question that can be the blocker question (one of the questions, text, not
 * anonymous), or undefined when it does (null, none, always fits).
 */
export function blockerQuestionProblem(blocker: number | null, details: readonly QuestionDetail[]): string | undefined {
  if (blocker === null) return undefined;
  if (blocker > details.length) {
    return `blocker_question must be between 1 and ${details.length} (the number of questions), or null for none`;
  }
  if (!canBeBlockerQuestion(details[blocker - 1])) {
    return `blocker_question must point at a required text question that is not anonymous (question ${blocker} is not)`;
  }
  return undefined;
}
