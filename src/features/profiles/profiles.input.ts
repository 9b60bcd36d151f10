import { z } from "zod";
import { isRealDate } from "../calendar/index.ts";

/**
 * The profile fields as PUT takes them (own and admin): every field optional, omitted ones unchanged, unknown keys
 * (birth_year, user_id, set_by_admin …) dropped by the object schema before anything reads them. Each message
 * names its field; the route reports the first problem as a 400. The start date's distance from today needs the
 * clock and is the service's check.
 */

export const MAX_ROLE = 80;
export const MAX_LOCATION = 80;
export const MAX_ASK_ME_ABOUT = 200;
/** Earliest accepted start date: older is a typing mistake, not a colleague. */
export const MIN_START_DATE = "1900-01-01";

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Whether day is a day of month in some year (29 February is: leap years have it). */
export function isBirthday(month: number, day: number): boolean {
  return (
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= DAYS_IN_MONTH[month - 1]!
  );
}

/** Field-level check of a start date: a real YYYY-MM-DD from 1900; null when fine, else the message. */
export function startDateProblem(value: string): string | null {
  if (!isRealDate(value)) return "start_date must be a real date as YYYY-MM-DD";
  if (value < MIN_START_DATE) return `start_date must be ${MIN_START_DATE} or later`;
  return null;
}

const MONTH_MESSAGE = "birth_month must be a whole number from 1 to 12, or null to remove the birthday";
const DAY_MESSAGE = "birth_day must be a whole number from 1 to 31, or null to remove the birthday";

const text = (field: string, max: number) => {
  const message = `${field} must be a string of at most ${max} characters, or null for none`;
  return z
    .union([z.string(), z.null()], { error: message })
    .meta({ description: `Up to ${max} characters; null or "" for none` })
    .transform((value, ctx) => {
      const trimmed = (value ?? "").trim();
      if ([...trimmed].length <= max) return trimmed;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });
};

export const profileInput = z
  .object(
    {
      birth_month: z.union([z.number().int().min(1).max(12), z.null()], { error: MONTH_MESSAGE }).optional(),
      birth_day: z.union([z.number().int().min(1).max(31), z.null()], { error: DAY_MESSAGE }).optional(),
      start_date: z
        .union([z.string(), z.null()], { error: "start_date must be a date as YYYY-MM-DD, or null for none" })
        .superRefine((value, ctx) => {
          const why = value === null ? null : startDateProblem(value);
          if (why) ctx.addIssue({ code: "custom", message: why });
        })
        .optional(),
      role: text("role", MAX_ROLE).optional(),
      location: text("location", MAX_LOCATION).optional(),
      ask_me_about: text("ask_me_about", MAX_ASK_ME_ABOUT).optional(),
      celebrate: z.boolean({ error: "celebrate must be true or false" }).optional(),
    },
    { error: "Request body must be a JSON object" },
  )
  .superRefine((body, ctx) => {
    const hasMonth = body.birth_month !== undefined;
    const hasDay = body.birth_day !== undefined;
    if (hasMonth !== hasDay) {
      ctx.addIssue({
        code: "custom",
        path: [hasMonth ? "birth_day" : "birth_month"],
        message: `${hasMonth ? "birth_day" : "birth_month"} must be sent together with ${hasMonth ? "birth_month" : "birth_day"}`,
      });
      return;
    }
    if ((body.birth_month === null) !== (body.birth_day === null)) {
      const missing = body.birth_month === null ? "birth_month" : "birth_day";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: `${missing} must be set too: birth_month and birth_day are both numbers, or both null to remove the birthday`,
      });
      return;
    }
    if (typeof body.birth_month === "number" && typeof body.birth_day === "number") {
      if (!isBirthday(body.birth_month, body.birth_day)) {
        ctx.addIssue({
          code: "custom",
          path: ["birth_day"],
          message: `birth_day ${body.birth_day} is not a day of month ${body.birth_month}`,
        });
      }
    }
  })
  .meta({ description: "Profile fields; omitted ones unchanged, unknown keys (such as birth_year) ignored" });

export type ProfileInput = z.output<typeof profileInput>;

export const importInput = z.object(
  {
    csv: z
      .string({ error: (iss) => (iss.input === undefined ? "csv is required" : "csv must be a string") })
      .describe("CSV text with the header email,birthday,start_date (birthday MM-DD, start_date YYYY-MM-DD)"),
    preview: z.boolean({ error: "preview must be true or false" }).default(true),
    overwrite: z.boolean({ error: "overwrite must be true or false" }).default(false),
  },
  { error: "Request body must be a JSON object" },
);
