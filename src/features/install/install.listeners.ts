import type { ChatListeners } from "../../chat/router.ts";
import type { Deps } from "../../deps.ts";
import { markNeedsReinstall, uninstallWorkspace } from "./access.ts";

/** Uninstall or a revoked bot token: keep the data, end all access and stop all work until it reinstalls. */
export function installListeners(bolt: ChatListeners, deps: Deps): void {
  const stop = async (teamId: string | undefined, why: string) => {
    if (!teamId) return;
    if (await uninstallWorkspace(deps, teamId)) deps.log.info({ team_id: teamId, why }, "workspace uninstalled");
  };
  bolt.event("app_uninstalled", async ({ body }) => stop(body.team_id, "app_uninstalled"));
  bolt.event("tokens_revoked", async ({ event, body }) => {
    if ((event.tokens.bot ?? []).length > 0) await stop(body.team_id, "tokens_revoked");
  });
}

/** A token Slack refused on any call, a job's or a listener's: the workspace is marked as needing reinstall. */
export function watchRefusedTokens(deps: Deps): void {
  deps.chat.onTokenRefused(async (teamId, code) => {
    if (await markNeedsReinstall(deps, teamId, code))
      deps.log.warn({ team_id: teamId, code }, "Slack refused the workspace's token: it needs a reinstall");
  });
}
