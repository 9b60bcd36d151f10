import { z } from "zod";
import {
  adminErrors,
  errorBody,
  memberProfile,
  mutationErrors,
  profile,
  profileImportResult,
  sessionErrors,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { importProfiles, MAX_IMPORT_ROWS } from "./profiles.import.ts";
import { importInput, profileInput } from "./profiles.input.ts";
import { getProfile, listProfiles, MAX_PAGE, saveMemberProfile, saveProfile } from "./profiles.service.ts";

const listQuery = z.object({
  after: z
    .string({ error: "after must be a user id" })
    .max(64, "after must be a user id")
    .optional()
    .describe("Keyset cursor: the user_id of the last profile of the previous page"),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${MAX_PAGE}` })
    .int(`limit must be a whole number from 1 to ${MAX_PAGE}`)
    .min(1, `limit must be a whole number from 1 to ${MAX_PAGE}`)
    .max(MAX_PAGE, `limit must be a whole number from 1 to ${MAX_PAGE}`)
    .default(MAX_PAGE)
    .describe(`Profiles per page, 1–${MAX_PAGE}; default ${MAX_PAGE}`),
});

export function profileRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/profile",
    {
      schema: {
        summary: "The signed-in member's profile (defaults if never set)",
        response: { 200: profile, ...sessionErrors },
      },
    },
    async (req) => {
      const s = requireSession(req);
      return getProfile(deps, s.teamId, s.userId);
    },
  );

  app.put(
    "/dashboard/api/profile",
    {
      schema: {
        summary: "Update the signed-in member's own profile; only the fields sent change",
        body: profileInput,
        response: { 200: profile, ...sessionErrors, ...mutationErrors },
      },
    },
    async (req) => {
      const s = requireSession(req);
      return saveProfile(deps, s.teamId, s.userId, req.body, false);
    },
  );

  app.get(
    "/dashboard/api/profiles",
    {
      config: { admin: true },
      schema: {
        summary: "Every current (active) member's profile, in user id order, a page at a time",
        description: `At most ${MAX_PAGE} a page; a full page means there may be more: ask again with after = the last user_id.`,
        querystring: listQuery,
        response: { 200: z.array(memberProfile), ...adminErrors, 400: errorBody.describe("Invalid after or limit") },
      },
    },
    async (req) => listProfiles(deps, requireSession(req).teamId, req.query.after, req.query.limit),
  );

  app.put(
    "/dashboard/api/profiles/:user_id",
    {
      config: { admin: true },
      schema: {
        summary: "Update one member's profile; only the fields sent change (a changed date makes the dates admin-set)",
        description:
          "An admin may opt a member out (celebrate false) but not back in: celebrate true for a member who opted out is a 400.",
        params: z.object({ user_id: z.string() }),
        body: profileInput,
        response: {
          200: profile,
          ...adminErrors,
          ...mutationErrors,
          404: errorBody.describe("No such current member in this workspace"),
        },
      },
    },
    async (req) => {
      const s = requireSession(req);
      return saveMemberProfile(deps, s.teamId, req.params.user_id, req.body);
    },
  );

  app.post(
    "/dashboard/api/profiles/import",
    {
      config: { admin: true },
      schema: {
        summary:
          "Import birthdays and start dates from CSV (email,birthday,start_date); a preview unless preview is false",
        description:
          `Members are matched by e-mail (any case) among active members. At most ${MAX_IMPORT_ROWS} rows. ` +
          "Empty cells leave that field. Empty dates are filled; without overwrite, a row that would change a date the " +
          "member set is kept: that profile stays whole and is not written.",
        body: importInput,
        response: {
          200: profileImportResult,
          ...adminErrors,
          ...mutationErrors,
        },
      },
    },
    async (req) => importProfiles(deps, requireSession(req).teamId, req.body),
  );
}
