import { z } from "zod";
import { isoDate } from "./common.ts";

/** Weekdays as the workspace calendar names them, Monday first. */
export const CALENDAR_WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export const CELEBRATION_KINDS = ["birthday", "anniversary"] as const;
export const HOLIDAY_IMPORT_STATUSES = ["ready", "renamed", "unchanged", "invalid"] as const;

export const celebrationSettings = z
  .object({
    channel_id: z.string().nullable().describe("Where celebrations are posted; null until saved"),
    timezone: z.string().describe("The workspace calendar's IANA timezone"),
    post_time: z.string().describe("HH:MM in the calendar's timezone"),
    birthdays: z.boolean(),
    anniversaries: z.boolean(),
    working_days: z.array(z.enum(CALENDAR_WEEKDAYS)).describe("The workspace calendar's working days"),
    admins: z.array(z.string()).describe("Celebrations admins: user ids who may change Celebrations"),
    can_react: z.boolean().describe("Read-only: the installation may add the 🎉 reaction (reactions:write)"),
    can_manage: z.boolean().describe("Read-only: the caller may change Celebrations (workspace or Celebrations admin)"),
  })
  .meta({ id: "CelebrationSettings" });

export const holiday = z.object({ date: isoDate, name: z.string() }).meta({ id: "Holiday" });

/** A holiday in the Calendar's list: the spec's date and name, and whether standups skip it. */
export const listedHoliday = holiday
  .extend({
    skips_standups: z
      .boolean()
      .describe(
        "Standups skip this day too (a workspace admin's holiday); false: it moves Celebrations only (a Celebrations admin's)",
      ),
  })
  .meta({ id: "ListedHoliday" });

export const holidayImportRow = z
  .object({
    line: z.number().int().describe("Line of the CSV (the header is line 1)"),
    date: z.string(),
    name: z.string(),
    status: z.enum(HOLIDAY_IMPORT_STATUSES),
    skips_standups: z
      .boolean()
      .nullable()
      .describe("Whether standups skip the holiday once imported (a workspace admin's do); null for invalid rows"),
    error: z.string().nullable(),
  })
  .meta({ id: "HolidayImportRow" });

export const holidayImport = z
  .object({
    preview: z.boolean(),
    ready: z.number().int().describe("New holidays"),
    renamed: z.number().int().describe("Dates that have a holiday under another name"),
    unchanged: z.number().int().describe("Dates that have this holiday under this name"),
    invalid: z.number().int(),
    written: z
      .number()
      .int()
      .describe(
        "Holidays added or renamed now, and unchanged ones a workspace admin's import made skip standups (0 in a preview)",
      ),
    rows: z.array(holidayImportRow),
  })
  .meta({ id: "HolidayImport" });

export const upcomingCelebration = z
  .object({
    user_id: z.string(),
    name: z.string(),
    kind: z.enum(CELEBRATION_KINDS),
    years: z.number().int().nullable().describe("Whole years (anniversaries); null for birthdays"),
    date: isoDate.describe("The date celebrated this year"),
    post_date: isoDate
      .nullable()
      .describe("The working day it is (or was) to be posted: the day itself or the last working day before it"),
    post_status: z
      .enum(["posted", "planned", "not_posted"])
      .describe(
        "posted: the message naming them was sent; planned: its post is still to come; not_posted: it will not be (no channel, its day or today's post time passed without a post, or the post failed)",
      ),
  })
  .meta({ id: "UpcomingCelebration" });

export const askDatesPreview = z
  .object({
    count: z.number().int().describe("People the message would be sent to now"),
    text: z.string(),
  })
  .meta({ id: "AskDatesPreview" });

export const askDatesSent = z.object({ sent: z.number().int() }).meta({ id: "AskDatesSent" });

/** The workspace calendar: the zone "today" is counted in everywhere, and the working days. */
export const workspaceCalendar = z
  .object({ timezone: z.string(), working_days: z.array(z.enum(CALENDAR_WEEKDAYS)) })
  .meta({ id: "WorkspaceCalendar" });
