import { InstallationGoneError } from "../../chat/chat-clients.ts";
import type { Deps } from "../../deps.ts";
import { syncMembers } from "./members.service.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "members.sync": { teamId: string };
  }
}

export function memberJobs(deps: Deps): void {
  deps.queue.register("members.sync", async ({ teamId }) => {
    try {
      const n = await syncMembers(deps, teamId);
      deps.log.info({ team_id: teamId, job: "members.sync", members: n }, "members synced");
    } catch (err) {
      if (err instanceof InstallationGoneError) return;
      throw err;
    }
  });
}
