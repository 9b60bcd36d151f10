import { z } from "zod";
import { isoTimestamp } from "./common.ts";

/** A Slack delivery that was stored and acknowledged but could not be processed, after every attempt. */
export const failedChatEvent = z.object({
  kind: z.enum(["event", "command", "interaction"]),
  type: z
    .string()
    .nullable()
    .describe("The event type (message, app_uninstalled …), the slash command, or the interaction type"),
  received_at: isoTimestamp,
  attempts: z.number().int().describe("Processing attempts made"),
  last_error: z.string().nullable().describe("Why the last attempt failed (no answer text, no tokens)"),
  failed_at: isoTimestamp.nullable().describe("When it was given up"),
});
