import { z } from "zod";
import { adminErrors, errorBody, mutationErrors, runStarted } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { runNow } from "./run-now.ts";

/** The spec's two equivalent prefixes, as for the schedules themselves. */
const PREFIXES = ["/dashboard/api/standups", "/dashboard/api/schedules"] as const;

const byId = z.object({ id: z.string().describe("Schedule id") });

export function standupRoutes(app: App, deps: Deps): void {
  for (const prefix of PREFIXES) {
    app.post(
      `${prefix}/:id/run`,
      {
        config: { admin: true },
        schema: {
          summary: "Run now: start today's run of the schedule at once (once a day, like the scheduled run)",
          params: byId,
          response: {
            201: runStarted,
            ...adminErrors,
            ...mutationErrors,
            404: errorBody.describe("No such schedule in this workspace"),
            409: errorBody.describe("Today's run already exists (whatever its status), or the schedule is paused"),
          },
        },
      },
      async (req, reply) => {
        const s = requireSession(req);
        return reply.status(201).send(await runNow(deps, s.teamId, req.params.id));
      },
    );
  }
}
