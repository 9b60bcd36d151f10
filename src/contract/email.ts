import { z } from "zod";

/** E-mail settings of the signed-in admin (GET/PUT /dashboard/api/email/preferences). */
export const emailPreferences = z
  .object({
    digest: z.boolean().describe("Whether this admin gets the weekly digest (on unless switched off)"),
    email_enabled: z.boolean().describe("Whether this server sends e-mail at all (EMAIL_API_KEY is set)"),
    has_address: z.boolean().describe("Whether Slack shows an e-mail address for this admin"),
  })
  .meta({ id: "EmailPreferences" });
