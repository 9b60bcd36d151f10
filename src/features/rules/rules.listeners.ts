import type { App } from "@slack/bolt";
import type { Deps } from "../../deps.ts";
import { OPEN_REPORT_ACTION } from "./rules.messages.ts";

/** A link button still sends its click to the app; Slack wants it acknowledged within 3 s, nothing more. */
export function ruleListeners(bolt: App, _deps: Deps): void {
  bolt.action(OPEN_REPORT_ACTION, async ({ ack }) => ack());
}
