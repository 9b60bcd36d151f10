import { z } from "zod";

/** A member's profile (GET/PUT /dashboard/api/profile, PUT /dashboard/api/profiles/<user_id>). */
export const profile = z
  .object({
    user_id: z.string(),
    birth_month: z.number().int().nullable().describe("1–12, sent together with birth_day; no year is ever kept"),
    birth_day: z.number().int().nullable().describe("Day of birth_month (29 February allowed)"),
    start_date: z.string().nullable().describe("First working day, YYYY-MM-DD"),
    role: z.string().describe("Job role, up to 80 characters"),
    location: z.string().describe("Up to 80 characters"),
    ask_me_about: z.string().describe("Up to 200 characters"),
    celebrate: z.boolean().describe("false: never celebrated, never asked for dates"),
    set_by_admin: z.boolean().describe("true when an admin (or an admin's import) wrote it last"),
    updated_at: z.string().nullable().describe("ISO 8601 UTC timestamp; null for a profile never set"),
  })
  .meta({ id: "Profile" });

/** One row of the admin list: the profile with who it belongs to. */
export const memberProfile = profile
  .extend({
    name: z.string().describe("The member's Slack name, for people"),
    email: z.string().describe("The member's Slack e-mail address (what the import matches); may be empty"),
  })
  .meta({ id: "MemberProfile" });

export const profileImportStatus = z.enum(["ready", "unchanged", "kept", "unmatched", "invalid"]);

export const profileImportRow = z
  .object({
    line: z.number().int().describe("Line of the CSV text the row ends on (the header is line 1)"),
    email: z.string(),
    user_id: z.string().nullable().describe("The matched member; null when none"),
    status: profileImportStatus,
    error: z.string().nullable().describe("Why the row is invalid or unmatched; null otherwise"),
  })
  .meta({ id: "ProfileImportRow" });

export const profileImportResult = z
  .object({
    preview: z.boolean(),
    overwrite: z.boolean(),
    counts: z.object({
      ready: z.number().int().describe("Rows that change a profile (saved unless preview)"),
      unchanged: z.number().int(),
      kept: z
        .number()
        .int()
        .describe("Rows left alone, profile whole (not written): a date in it is the member's and overwrite is false"),
      unmatched: z.number().int().describe("No active member has that e-mail address"),
      invalid: z.number().int(),
      written: z.number().int().describe("Profiles saved (the ready rows; never a kept one); always 0 in a preview"),
    }),
    rows: z.array(profileImportRow),
  })
  .meta({ id: "ProfileImportResult" });
