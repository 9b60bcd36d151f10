/** The Slack app this instance is: its scopes and events (one list, also used by /install) and its manifest. */

export { manifestRoutes } from "./manifest.routes.ts";
export { buildManifest } from "./manifest.ts";
export { BOT_EVENTS, BOT_SCOPES, type BotEvent, type BotScope, SLASH_COMMAND } from "./slack-app.ts";
