import { z } from "zod";
import { adminErrors, errorBody, memberDataDeleted, mutationErrors, workspaceDeleted } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession, SESSION_COOKIE } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { deleteMemberData, deleteWorkspace } from "./data-removal.service.ts";

const confirmBody = z.object(
  {
    confirm: z
      .string({
        error: (issue) =>
          issue.input === undefined ? "confirm is required (the workspace name)" : "confirm must be a string",
      })
      .max(200, "confirm must be the workspace name"),
  },
  { error: "Request body must be a JSON object" },
);

export function dataRemovalRoutes(app: App, deps: Deps): void {
  app.delete(
    "/dashboard/api/workspace",
    {
      config: { admin: true },
      schema: {
        summary: "Delete every row of this workspace and revoke its Slack token; ends the session",
        body: confirmBody,
        response: {
          200: workspaceDeleted,
          ...adminErrors,
          ...mutationErrors,
          404: errorBody.describe("The workspace is already gone"),
        },
      },
    },
    async (req, reply) => {
      const result = await deleteWorkspace(deps, requireSession(req).teamId, req.body.confirm);
      reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: true });
      return result;
    },
  );

  app.delete(
    "/dashboard/api/members/:user_id/data",
    {
      config: { admin: true },
      schema: {
        summary: "Delete everything stored about a member removed from Slack",
        params: z.object({ user_id: z.string().max(64).describe("Slack user id") }),
        response: {
          200: memberDataDeleted,
          ...adminErrors,
          ...mutationErrors,
          404: errorBody.describe("No such member in this workspace (or their data is already deleted)"),
          409: errorBody.describe("The member is still active in Slack"),
        },
      },
    },
    async (req) => deleteMemberData(deps, requireSession(req).teamId, req.params.user_id),
  );
}
