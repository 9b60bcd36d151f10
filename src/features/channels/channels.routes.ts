import type { FastifyInstance } from "fastify";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import { ChannelDirectory } from "./channels.service.ts";

export function channelRoutes(app: FastifyInstance, deps: Deps): void {
  const directory = new ChannelDirectory(deps);
  app.get("/dashboard/api/channels", async (req) => directory.list(requireSession(req).teamId));
}
