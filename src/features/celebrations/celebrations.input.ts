import { z } from "zod";
import { CALENDAR_WEEKDAYS } from "../../contract/index.ts";
import { isRealDate } from "../calendar/index.ts";
import { CHANNEL_ID } from "../schedules/index.ts";

/** The request bodies of Celebrations; each message names its field and what it may be. */

/** Celebrations admins a workspace may name. */
export const MAX_ADMINS = 50;
/** Rows a holiday CSV may have (the header not counted). */
export const MAX_IMPORT_ROWS = 5_000;
export const MAX_HOLIDAY_NAME = 100;
/** 5,000 rows of a date and a name fit well within this. */
export const MAX_CSV_CHARS = 1_000_000;

const USER_ID = /^[UW][A-Z0-9]{2,}$/;
export const POST_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAYS = CALENDAR_WEEKDAYS.join(", ");

const required = (field: string, what: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? `${field} is required: ${what}` : `${field} must be ${what}`;

const timezoneField = z
  .string({ error: required("timezone", "an IANA timezone such as Europe/Paris") })
  .min(1, "timezone must be an IANA timezone such as Europe/Paris")
  .max(64, "timezone must be an IANA timezone such as Europe/Paris");
const workingDaysField = z
  .array(z.enum(CALENDAR_WEEKDAYS, { error: `working_days must list days among ${DAYS}` }), {
    error: required("working_days", `an array of days among ${DAYS}`),
  })
  .min(1, `working_days must list at least one day among ${DAYS}`)
  .max(7, `working_days must list each day among ${DAYS} at most once`)
  .refine((d) => new Set(d).size === d.length, `working_days must list each day among ${DAYS} at most once`);

/** The workspace calendar alone (PUT /dashboard/api/calendar): no channel needed, Celebrations stay as they are. */
export const calendarInput = z.object(
  { timezone: timezoneField, working_days: workingDaysField },
  { error: "Request body must be a JSON object" },
);
export type CalendarInput = z.output<typeof calendarInput>;

export const settingsInput = z.object(
  {
    channel_id: z
      .string({ error: required("channel_id", "a Slack channel id such as C0123ABCD") })
      .regex(CHANNEL_ID, "channel_id must be a Slack channel id such as C0123ABCD"),
    timezone: timezoneField,
    working_days: workingDaysField,
    post_time: z
      .string({ error: "post_time must be a time as HH:MM (24-hour)" })
      .regex(POST_TIME, "post_time must be a time as HH:MM (24-hour)")
      .optional(),
    birthdays: z.boolean({ error: "birthdays must be true or false" }).optional(),
    anniversaries: z.boolean({ error: "anniversaries must be true or false" }).optional(),
    admins: z
      .array(
        z
          .string({ error: "admins must be an array of user ids" })
          .regex(USER_ID, "admins must be an array of user ids such as U0123ABCD"),
        { error: "admins must be an array of user ids" },
      )
      .max(MAX_ADMINS, `admins may name at most ${MAX_ADMINS} people`)
      .optional(),
  },
  { error: "Request body must be a JSON object" },
);
export type SettingsInput = z.output<typeof settingsInput>;

const holidayName = z
  .string({ error: required("name", `a name of 1 to ${MAX_HOLIDAY_NAME} characters`) })
  .trim()
  .min(1, `name must not be empty (1 to ${MAX_HOLIDAY_NAME} characters)`)
  .max(MAX_HOLIDAY_NAME, `name must be at most ${MAX_HOLIDAY_NAME} characters`);

export const holidayDate = (field: string) =>
  z
    .string({ error: required(field, "a real date as YYYY-MM-DD") })
    .refine((d) => isRealDate(d), `${field} must be a real date as YYYY-MM-DD`);

export const holidayInput = z.object(
  { date: holidayDate("date"), name: holidayName },
  { error: "Request body must be a JSON object" },
);

export const holidayImportInput = z.object(
  {
    csv: z
      .string({ error: required("csv", "CSV text with the header date,name") })
      .max(MAX_CSV_CHARS, `csv must be at most ${MAX_CSV_CHARS} characters`),
    preview: z.boolean({ error: "preview must be true or false" }).optional(),
  },
  { error: "Request body must be a JSON object" },
);

/** A holiday name from a CSV row: the same rules, its problem as a sentence. */
export function holidayNameProblem(name: string): string | undefined {
  const n = name.trim();
  if (n.length === 0) return "name is empty";
  if (n.length > MAX_HOLIDAY_NAME) return `name is longer than ${MAX_HOLIDAY_NAME} characters`;
  return undefined;
}
