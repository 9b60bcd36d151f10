import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import { parseBody } from "../../http/validate.ts";
import { changeRole, inviteMember, listMemberViews } from "./members.service.ts";

const SLACK_ID = /^[A-Z0-9]{2,32}$/;

const inviteBody = z.object({
  user_id: z
    .string({ error: (issue) => (issue.input === undefined ? "user_id is required" : "user_id must be a string") })
    .trim()
    .regex(SLACK_ID, "user_id must be a Slack user id"),
});
const roleBody = z.object({
  role: z.enum(["admin", "member"], { error: "role must be admin or member" }),
});

export function memberRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/dashboard/api/members", { config: { admin: true } }, async (req) => {
    return listMemberViews(deps, requireSession(req).teamId);
  });

  app.post("/dashboard/api/members/invite", { config: { admin: true } }, async (req, reply) => {
    const s = requireSession(req);
    const body = parseBody(inviteBody, req.body);
    const member = await inviteMember(deps, s.teamId, body.user_id);
    return reply.status(201).send(member);
  });

  app.put<{ Params: { user_id: string } }>(
    "/dashboard/api/members/:user_id/role",
    { config: { admin: true } },
    async (req) => {
      const s = requireSession(req);
      const body = parseBody(roleBody, req.body);
      return changeRole(deps, s.teamId, req.params.user_id, body.role);
    },
  );
}
