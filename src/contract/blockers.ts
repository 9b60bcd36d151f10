import { z } from "zod";
import { isoDate, isoTimestamp } from "./common.ts";

/** Blocker items (issue 25): each blocker a member reports, open until resolved. */

export const BLOCKERS_PAGE_DEFAULT = 50;
export const BLOCKERS_PAGE_MAX = 200;
export const BLOCKER_NOTE_MAX = 500;

export const blockerStatus = z.enum(["open", "resolved"]);

export const blockerItem = z
  .object({
    id: z.number().int(),
    standup_id: z.string().describe("The standup (schedule) the blocker was reported in"),
    standup_name: z.string(),
    channel_id: z.string(),
    user_id: z.string(),
    real_name: z.string().describe("The member's name (real name, else display name), never the id"),
    text: z.string().describe("The latest blocker answer's text"),
    status: blockerStatus,
    opened_date: isoDate.describe("The standup date it was first reported"),
    opened_at: isoTimestamp,
    age_days: z
      .number()
      .int()
      .describe("Whole days from opened_date to the standup's local date today (resolved: to the day it was resolved)"),
    last_date: isoDate.describe("The latest standup date it was reported (or confirmed still blocked)"),
    resolved_at: isoTimestamp.nullable(),
    resolved_by: z.string().nullable().describe("Who resolved it (a user id)"),
    resolved_by_name: z.string().nullable(),
    resolution_note: z.string().nullable(),
    resolved_via: z
      .string()
      .nullable()
      .describe("dm, modal (the Slack buttons), dashboard, mcp, or answer (the member answered without a blocker)"),
  })
  .meta({ id: "BlockerItem" });

export const blockerPage = z
  .object({
    items: z.array(blockerItem),
    total: z.number().int().describe("Items matching the filters, on all pages"),
    page: z.number().int(),
    per_page: z.number().int(),
  })
  .meta({ id: "BlockerPage" });

const STATUS_MESSAGE = "status must be one of open, resolved, all";
const pageNumber = (name: string, max: number) => {
  const message = `${name} must be a whole number from 1 to ${max}`;
  return z
    .string({ error: message })
    .regex(/^\d{1,6}$/, message)
    .refine((v) => Number(v) >= 1 && Number(v) <= max, message)
    .transform(Number)
    .optional();
};

/** The filters of the list and the CSV. */
export const blockerFilterQuery = z.object({
  status: z
    .enum(["open", "resolved", "all"], { error: STATUS_MESSAGE })
    .optional()
    .describe("open (default): open first, oldest first; resolved: newest resolved first; all: open, then resolved"),
  standup: z
    .string({ error: "standup must be a standup id" })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "standup must be a standup id")
    .optional(),
  member: z
    .string({ error: "member must be a Slack user id" })
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, "member must be a Slack user id")
    .optional(),
});

export const blockerListQuery = blockerFilterQuery.extend({
  page: pageNumber("page", 100_000).describe("1-based page (default 1)"),
  per_page: pageNumber("per_page", BLOCKERS_PAGE_MAX).describe(
    `Items per page (default ${BLOCKERS_PAGE_DEFAULT}, at most ${BLOCKERS_PAGE_MAX})`,
  ),
});

export const blockerIdParams = z.object({
  id: z
    .string({ error: "id must be a blocker id" })
    .regex(/^[1-9]\d{0,14}$/, "id must be a blocker id")
    .transform(Number),
});

export const resolveBlockerInput = z
  .object({
    note: z
      .string({ error: "note must be a string" })
      .max(BLOCKER_NOTE_MAX, `note must be at most ${BLOCKER_NOTE_MAX} characters`)
      .nullable()
      .optional()
      .describe("How it was resolved (optional)"),
  })
  .meta({ id: "ResolveBlockerInput" });
