import type { Deps } from "../../deps.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "install.welcome": { teamId: string; userId: string };
  }
}

/** The hook the welcome e-mail plugs into; without EMAIL_API_KEY there is nothing to send. */
export function installJobs(deps: Deps, sendWelcome?: (teamId: string, userId: string) => Promise<void>): void {
  deps.queue.register("install.welcome", async ({ teamId, userId }) => {
    if (!deps.config.emailApiKey || !sendWelcome) {
      deps.log.debug({ team_id: teamId, job: "install.welcome" }, "welcome e-mail not configured");
      return;
    }
    await sendWelcome(teamId, userId);
  });
}
