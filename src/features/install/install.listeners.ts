import type { App } from "@slack/bolt";
import { markUninstalled } from "../../chat/installations.repo.ts";
import type { Deps } from "../../deps.ts";

/** Uninstall or a revoked bot token: keep the data, stop all work for the workspace until it reinstalls. */
export function installListeners(bolt: App, deps: Deps): void {
  const stop = async (teamId: string | undefined, why: string) => {
    if (!teamId) return;
    if (await markUninstalled(deps.db, teamId, deps.clock.now()))
      deps.log.info({ team_id: teamId, why }, "workspace uninstalled");
  };
  bolt.event("app_uninstalled", async ({ body }) => stop(body.team_id, "app_uninstalled"));
  bolt.event("tokens_revoked", async ({ event, body }) => {
    if ((event.tokens.bot ?? []).length > 0) await stop(body.team_id, "tokens_revoked");
  });
}
