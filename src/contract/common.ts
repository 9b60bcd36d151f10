import { z } from "zod";

/**
 * The HTTP contract: response shapes of every route, shared by the server (schemas on routes, the
 * OpenAPI document, serialisation) and the dashboard (types only). Zod and nothing else, so the
 * browser build can read it.
 */

export const errorBody = z
  .object({
    error: z.string().describe("What went wrong, for people"),
    detail: z
      .string()
      .optional()
      .describe('More specific than `error` where the spec fixes it (e.g. "Admin required")'),
  })
  .meta({ id: "Error", description: 'Every failure of the JSON API: `{"error": "..."}`' });

export const okBody = z.object({ ok: z.literal(true) }).meta({ id: "Ok" });

export const isoDate = z.string().describe("Date as YYYY-MM-DD");
export const isoTimestamp = z.string().describe("ISO 8601 UTC timestamp");
export const role = z.enum(["admin", "member"]);

/** The error statuses a route under /dashboard/api can answer besides its own. */
export const sessionErrors = {
  401: errorBody.describe("No valid session"),
  429: errorBody.describe("Too many requests from this session (600 a minute); see Retry-After"),
} as const;
export const adminErrors = { ...sessionErrors, 403: errorBody.describe("The session is not an admin's") } as const;
export const mutationErrors = {
  400: errorBody.describe("Invalid input; the message names the field"),
  403: errorBody.describe("Cross-site request, or not an admin"),
  415: errorBody.describe("A body that is not application/json"),
} as const;

export const html = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string() } },
});
