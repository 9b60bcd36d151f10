import type { Deps } from "../../deps.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "install.welcome": { teamId: string; userId: string };
  }
}

/** The install queues a welcome; the e-mail feature does not exist yet, so the job only notes that nothing was sent. */
export function installJobs(deps: Deps): void {
  deps.queue.register("install.welcome", async ({ teamId }) => {
    deps.log.debug({ team_id: teamId, job: "install.welcome" }, "welcome e-mail not sent: e-mail is not built yet");
  });
}
