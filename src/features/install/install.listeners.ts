import type { ChatListeners } from "../../chat/router.ts";
import type { Deps } from "../../deps.ts";
import { markNeedsReinstall, uninstallWorkspace } from "./access.ts";

/** How far Slack's event_time may lag our clock without an uninstall event being taken for an older one. */
export const UNINSTALL_CLOCK_SKEW_S = 30;

/** Uninstall or a revoked bot token: keep the data, end all access and stop all work until it reinstalls. */
export function installListeners(bolt: ChatListeners, deps: Deps): void {
  // Slack's event_time (whole seconds): a delivery processed late (re-run by the intake) does not uninstall a
  // reinstall that came after the event. Slack's clock and ours may differ a little: an event counts as before the
  // reinstall only when it is more than UNINSTALL_CLOCK_SKEW_S older.
  const stop = async (body: { team_id?: string; event_time?: unknown }, why: string) => {
    const teamId = body.team_id;
    if (!teamId) return;
    const seconds = Number(body.event_time);
    const eventAt =
      Number.isFinite(seconds) && seconds > 0 ? new Date((seconds + UNINSTALL_CLOCK_SKEW_S) * 1000) : undefined;
    if (await uninstallWorkspace(deps, teamId, eventAt ? { eventAt } : {}))
      deps.log.info({ team_id: teamId, why }, "workspace uninstalled");
  };
  bolt.event("app_uninstalled", async ({ body }) => stop(body, "app_uninstalled"));
  bolt.event("tokens_revoked", async ({ event, body }) => {
    if ((event.tokens.bot ?? []).length > 0) await stop(body, "tokens_revoked");
  });
}

/** A token Slack refused on any call, a job's or a listener's: the workspace is marked as needing reinstall. */
export function watchRefusedTokens(deps: Deps): void {
  deps.chat.onTokenRefused(async (teamId, code) => {
    if (await markNeedsReinstall(deps, teamId, code))
      deps.log.warn({ team_id: teamId, code }, "Slack refused the workspace's token: it needs a reinstall");
  });
}
