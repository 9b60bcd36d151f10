import { z } from "zod";
import { isoTimestamp } from "./common.ts";

/** A connected AI client: one person's consent to one OAuth client (the "Connected AI clients" list). */
export const oauthGrant = z
  .object({
    id: z.number().int(),
    client_id: z
      .string()
      .describe("The client's id: mcpc_… when registered dynamically, else its metadata document URL"),
    client_name: z.string().describe("The name the client gave itself (not verified for dynamic clients)"),
    client_uri: z.string().nullable().describe("The client's home page, as it declared it"),
    redirect_host: z.string().describe("Host of the client's first redirect URI: where codes were sent"),
    kind: z.enum(["dynamic", "metadata_document"]),
    scopes: z
      .array(z.enum(["standups:read", "standups:write"]))
      .describe("standups:read reads the workspace; standups:write acts as the person who connected"),
    user_id: z.string().describe("Who connected the client; the client acts as them"),
    user_name: z.string(),
    mine: z.boolean().describe("Connected by the signed-in person"),
    created_at: isoTimestamp,
    last_used_at: isoTimestamp.nullable(),
  })
  .meta({ id: "OAuthGrant" });
