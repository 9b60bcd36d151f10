import { z } from "zod";
import {
  errorBody,
  mutationErrors,
  okBody,
  sessionErrors,
  timeOffInput,
  timeOffList,
  timeOffQuery,
  timeOffRange,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import { notFound } from "../../http/errors.ts";
import type { App } from "../../http/server.ts";
import { createRange, listRanges, removeRange } from "./time-off.service.ts";

const forbiddenOthers = { 403: errorBody.describe("Another member's time off, and the session is not an admin's") };

export function timeOffRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/time-off",
    {
      schema: {
        summary: "Time off: members their own ranges, admins everyone's (or one member's with user_id)",
        description:
          "Current and upcoming ranges by start date (include_past=true: also those that ended, kept a year). " +
          "Dates are both included and compared with the date each standup run is for.",
        querystring: timeOffQuery,
        response: { 200: timeOffList, ...sessionErrors, ...forbiddenOthers, 400: mutationErrors[400] },
      },
    },
    async (req) => listRanges(deps, requireSession(req), req.query),
  );

  app.post(
    "/dashboard/api/time-off",
    {
      schema: {
        summary: "Add time off; overlapping or adjacent ranges of the member merge into one (the answer)",
        body: timeOffInput,
        response: { 201: timeOffRange, ...sessionErrors, ...mutationErrors },
      },
    },
    async (req, reply) => reply.status(201).send(await createRange(deps, requireSession(req), req.body)),
  );

  app.delete(
    "/dashboard/api/time-off/:id",
    {
      schema: {
        summary: "Remove a time-off range (own, or any as an admin)",
        params: z.object({ id: z.string() }),
        response: {
          200: okBody,
          ...sessionErrors,
          403: mutationErrors[403],
          404: errorBody.describe("No such range in this workspace"),
        },
      },
    },
    async (req) => {
      const s = requireSession(req);
      if (!/^\d{1,15}$/.test(req.params.id)) throw notFound("No such time off");
      await removeRange(deps, s, Number(req.params.id));
      return { ok: true as const };
    },
  );
}
