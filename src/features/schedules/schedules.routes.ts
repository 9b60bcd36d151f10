import type { FastifyInstance } from "fastify";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import { badRequest } from "../../http/errors.ts";
import { parseBody } from "../../http/validate.ts";
import {
  createSchedule,
  deleteSchedule,
  listSchedules,
  scheduleCreateInput,
  scheduleUpdateInput,
  updateSchedule,
} from "./schedules.service.ts";

/** The spec's two equivalent prefixes: the single-standup UI and the multi-schedule UI. */
const PREFIXES = ["/dashboard/api/standups", "/dashboard/api/schedules"] as const;

type ById = { Params: { id: string } };

/** A bodiless request is an empty object; JSON `null` is not an object and gets a 400 like any other non-object. */
function bodyOf(body: unknown): unknown {
  if (body === null) throw badRequest("Request body must be a JSON object");
  return body ?? {};
}

export function scheduleRoutes(app: FastifyInstance, deps: Deps): void {
  for (const prefix of PREFIXES) {
    app.get(prefix, async (req) => listSchedules(deps, requireSession(req).teamId));

    app.post(prefix, { config: { admin: true } }, async (req, reply) => {
      const s = requireSession(req);
      const input = parseBody(scheduleCreateInput, bodyOf(req.body));
      return reply.status(201).send(await createSchedule(deps, s.teamId, input));
    });

    app.put<ById>(`${prefix}/:id`, { config: { admin: true } }, async (req) => {
      const s = requireSession(req);
      const input = parseBody(scheduleUpdateInput, bodyOf(req.body));
      return updateSchedule(deps, s.teamId, req.params.id, input);
    });

    app.delete<ById>(`${prefix}/:id`, { config: { admin: true } }, async (req) => {
      return deleteSchedule(deps, requireSession(req).teamId, req.params.id);
    });
  }
}
