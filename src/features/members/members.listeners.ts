import type { ChatListeners } from "../../chat/router.ts";
import type { Deps } from "../../deps.ts";
import { ensureMembersMiddleware } from "./members.ensure.ts";
import { applySlackUser } from "./members.service.ts";
import type { SlackUser } from "./members.slack.ts";

export function memberListeners(bolt: ChatListeners, deps: Deps): void {
  // Runs before every listener: someone the member sync has not reached yet is added as they use Upbeat.
  ensureMembersMiddleware(bolt, deps);
  bolt.event("team_join", async ({ event, body }) => applySlackUser(deps, body.team_id, event.user as SlackUser));
  bolt.event("user_change", async ({ event, body }) => applySlackUser(deps, body.team_id, event.user as SlackUser));
}
