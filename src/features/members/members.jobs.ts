import type { Deps } from "../../deps.ts";
import { runMemberSync } from "./member-sync.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "members.sync": { teamId: string };
  }
}

export function memberJobs(deps: Deps): void {
  deps.queue.register("members.sync", async ({ teamId }, job) => runMemberSync(deps, teamId, job));
}
