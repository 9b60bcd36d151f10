import { z } from "zod";
import { channel, errorBody, sessionErrors } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { channelDirectory } from "./channels.service.ts";

export function channelRoutes(app: App, deps: Deps): void {
  const directory = channelDirectory(deps);
  app.get(
    "/dashboard/api/channels",
    {
      schema: {
        summary: "Public channels the bot can see",
        response: {
          200: z.array(channel),
          ...sessionErrors,
          500: errorBody.describe("Slack could not be reached"),
        },
      },
    },
    async (req) => directory.list(requireSession(req).teamId),
  );
}
