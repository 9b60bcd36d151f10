import { z } from "zod";
import {
  adminErrors,
  errorBody,
  member,
  memberSyncQueued,
  memberSyncStatus,
  mutationErrors,
  person,
  roleChanged,
  sessionErrors,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { memberSyncStatus as readSyncStatus, requestMemberSync } from "./member-sync.ts";
import { changeRole, inviteMember, listMemberViews, listPeople } from "./members.service.ts";

const SLACK_ID = /^[A-Z0-9]{2,32}$/;
const BODY_MESSAGE = "Request body must be a JSON object";

const inviteBody = z.object(
  {
    user_id: z
      .string({ error: (issue) => (issue.input === undefined ? "user_id is required" : "user_id must be a string") })
      .trim()
      .regex(SLACK_ID, "user_id must be a Slack user id"),
  },
  { error: BODY_MESSAGE },
);
const roleBody = z.object(
  { role: z.enum(["admin", "member"], { error: "role must be admin or member" }) },
  { error: BODY_MESSAGE },
);

const byUser = z.object({ user_id: z.string().describe("Slack user id") });

export function memberRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/members",
    {
      config: { admin: true },
      schema: { summary: "Every member", response: { 200: z.array(member), ...adminErrors } },
    },
    async (req) => listMemberViews(deps, requireSession(req).teamId),
  );

  app.get(
    "/dashboard/api/people",
    {
      schema: {
        summary: "The workspace's people by name, for pickers and filters (any signed-in member)",
        description:
          "Names, Slack display names and pictures of everyone Upbeat knows in the workspace, active people first. " +
          "No e-mail addresses or roles: those stay on the admin-only members list.",
        response: { 200: z.array(person), ...sessionErrors },
      },
    },
    async (req) => listPeople(deps, requireSession(req).teamId),
  );

  app.post(
    "/dashboard/api/members/invite",
    {
      config: { admin: true },
      schema: {
        summary: "Add a Slack user as a member",
        body: inviteBody,
        response: {
          201: member,
          ...adminErrors,
          ...mutationErrors,
          500: errorBody.describe("Slack could not be reached"),
        },
      },
    },
    async (req, reply) => {
      const member = await inviteMember(deps, requireSession(req).teamId, req.body.user_id);
      return reply.status(201).send(member);
    },
  );

  app.put(
    "/dashboard/api/members/:user_id/role",
    {
      config: { admin: true },
      schema: {
        summary: "Make a member an admin, or not",
        params: byUser,
        body: roleBody,
        response: {
          200: roleChanged,
          ...adminErrors,
          ...mutationErrors,
          404: errorBody.describe("No such member in this workspace"),
        },
      },
    },
    async (req) => changeRole(deps, requireSession(req).teamId, req.params.user_id, req.body.role),
  );

  app.get(
    "/dashboard/api/members/sync",
    {
      config: { admin: true },
      schema: {
        summary: "When the member sync last ran, how it ended, and whether one is queued or running",
        response: { 200: memberSyncStatus, ...adminErrors },
      },
    },
    async (req) => readSyncStatus(deps, requireSession(req).teamId),
  );

  app.post(
    "/dashboard/api/members/sync",
    {
      config: { admin: true },
      schema: {
        summary: "Sync members from Slack now (users.list, in the background)",
        description:
          "Answers 202 at once. A sync already queued or running is not queued a second time: the answer says so.",
        response: { 202: memberSyncQueued, ...adminErrors, ...mutationErrors },
      },
    },
    async (req, reply) => {
      const status = await requestMemberSync(deps, requireSession(req).teamId);
      return reply.status(202).send({ status });
    },
  );
}
