import { z } from "zod";
import { errorBody, oauthGrant, okBody, sessionErrors } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { listGrants, revokeGrant } from "./grants.service.ts";

/** The "Connected AI clients" list: any signed-in person, for what they connected (admins: everyone's). */
export function oauthGrantRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/oauth/grants",
    {
      schema: {
        summary: "Connected AI clients (OAuth grants): yours, or every one of the workspace for an admin",
        response: { 200: z.array(oauthGrant), ...sessionErrors },
      },
    },
    async (req) => listGrants(deps, requireSession(req)),
  );

  app.delete(
    "/dashboard/api/oauth/grants/:grant_id",
    {
      schema: {
        summary: "Disconnect an AI client: its tokens stop working at once (members: their own; admins: any)",
        params: z.object({ grant_id: z.string() }),
        response: {
          200: okBody,
          ...sessionErrors,
          403: errorBody.describe("Cross-site request"),
          404: errorBody.describe("No such connected client of yours (an admin: of this workspace)"),
          415: errorBody.describe("A body that is not application/json"),
        },
      },
    },
    async (req) => revokeGrant(deps, requireSession(req), req.params.grant_id),
  );
}
