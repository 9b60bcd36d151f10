import { z } from "zod";
import { isoTimestamp } from "./common.ts";
import { MAX_WINDOW_DAYS } from "./insights.ts";

/** How many kudos the dashboard lists: the newest ones. */
export const RECENT_KUDOS_LIMIT = 100;
/** How many people a leaderboard ranks at most. */
export const LEADERBOARD_LIMIT = 100;
export const LEADERBOARD_DEFAULT_DAYS = 30;
/** A kudo's message, in characters. */
export const MAX_KUDO_LENGTH = 500;

export const kudo = z
  .object({
    id: z.number().int(),
    from_user: z.string().describe("Who gave it (Slack user id)"),
    to_user: z.string().describe("Who received it (Slack user id)"),
    from_name: z.string().describe("The giver's name in the workspace; the user id when unknown"),
    to_name: z.string().describe("The receiver's name in the workspace; the user id when unknown"),
    message: z
      .string()
      .describe(
        `What was said, at most ${MAX_KUDO_LENGTH} characters: Slack markup as typed (mentions as <@U…>), with ` +
          "&, < and > as plain characters",
      ),
    channel_id: z.string().describe("Where it was given: the message's channel, the command's, or the standup's"),
    created_at: isoTimestamp,
  })
  .meta({ id: "Kudo" });

export const leaderboardEntry = z
  .object({
    user_id: z.string(),
    real_name: z.string().describe("The member's name; the user id when unknown"),
    kudos_received: z.number().int(),
  })
  .meta({ id: "LeaderboardEntry" });

const DAYS_MESSAGE = `days must be a whole number from 1 to ${MAX_WINDOW_DAYS}`;

/** `?days=` of the leaderboard; an empty value counts as absent. */
export const leaderboardQuery = z.object({
  days: z
    .string({ error: DAYS_MESSAGE })
    .regex(/^(\d{1,6})?$/, DAYS_MESSAGE)
    .refine((v) => v === "" || (Number(v) >= 1 && Number(v) <= MAX_WINDOW_DAYS), DAYS_MESSAGE)
    .transform((v) => (v === "" ? LEADERBOARD_DEFAULT_DAYS : Number(v)))
    .optional()
    .describe(
      `Days back from today in the workspace timezone, today included (1 to ${MAX_WINDOW_DAYS}, default ` +
        `${LEADERBOARD_DEFAULT_DAYS})`,
    ),
});
