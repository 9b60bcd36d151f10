import type { ChatListeners } from "../../chat/router.ts";
import type { Deps } from "../../deps.ts";
import { OPEN_REPORT_ACTION } from "./rules.messages.ts";

/** A link button still sends its click to the app; Slack wants it acknowledged within 3 s, nothing more. */
export function ruleListeners(bolt: ChatListeners, _deps: Deps): void {
  bolt.action(OPEN_REPORT_ACTION, async ({ ack }) => ack());
}
