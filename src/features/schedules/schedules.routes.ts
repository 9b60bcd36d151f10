import { z } from "zod";
import { adminErrors, errorBody, mutationErrors, okBody, schedule, sessionErrors } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { scheduleCreateInput, scheduleUpdateInput } from "./schedules.input.ts";
import { createSchedule, deleteSchedule, listSchedules, updateSchedule } from "./schedules.service.ts";

/** The spec's two equivalent prefixes: the single-standup UI and the multi-schedule UI. */
const PREFIXES = ["/dashboard/api/standups", "/dashboard/api/schedules"] as const;

const byId = z.object({ id: z.string().describe("Schedule id") });
const notFound = { 404: errorBody.describe("No such schedule in this workspace") };
/** channel_id is checked with Slack (on PUT only when it changes): shape first, then the workspace's channels. */
const channelErrors = {
  400: errorBody.describe(
    "Invalid input; the message names the field. Also a channel_id Slack does not show the app in this workspace " +
      '(unknown, another workspace\'s, private without the app: "channel_id: no such channel in this workspace; …"), ' +
      "an archived channel, or a public channel the app may not join",
  ),
  500: errorBody.describe("Slack could not be reached to check channel_id; nothing was stored"),
};

export function scheduleRoutes(app: App, deps: Deps): void {
  for (const prefix of PREFIXES) {
    app.get(
      prefix,
      {
        schema: {
          summary: "Every standup schedule, with its name, next and last run and participant count",
          response: { 200: z.array(schedule), ...sessionErrors },
        },
      },
      async (req) => listSchedules(deps, requireSession(req).teamId),
    );

    app.post(
      prefix,
      {
        config: { admin: true },
        schema: {
          summary: "Create a schedule in a channel of the workspace (the app joins a public channel it is not in)",
          body: scheduleCreateInput,
          response: { 201: schedule, ...adminErrors, ...mutationErrors, ...channelErrors },
        },
      },
      async (req, reply) => {
        const s = requireSession(req);
        return reply.status(201).send(await createSchedule(deps, s.teamId, req.body));
      },
    );

    app.put(
      `${prefix}/:id`,
      {
        config: { admin: true },
        schema: {
          summary: "Change a schedule; omitted fields stay as they are",
          params: byId,
          body: scheduleUpdateInput,
          response: { 200: schedule, ...adminErrors, ...mutationErrors, ...channelErrors, ...notFound },
        },
      },
      async (req) => updateSchedule(deps, requireSession(req).teamId, req.params.id, req.body),
    );

    app.delete(
      `${prefix}/:id`,
      {
        config: { admin: true },
        schema: {
          summary: "Delete a schedule (past runs and answers stay)",
          params: byId,
          response: { 200: okBody, ...adminErrors, ...notFound },
        },
      },
      async (req) => deleteSchedule(deps, requireSession(req).teamId, req.params.id),
    );
  }
}
