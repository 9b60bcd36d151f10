/** The Slack app this instance is: its scopes and events (one list, also used by /install), its manifest, the setup page. */
export { manifestRoutes } from "./manifest.routes.ts";
export { buildManifest } from "./manifest.ts";
export { SETUP_PAGE_CSP, setupPage } from "./setup.page.ts";
export { BOT_EVENTS, BOT_SCOPES, type BotEvent, type BotScope, SLASH_COMMAND } from "./slack-app.ts";
export { isPublicHttpsUrl, type SlackTransport, suggestedTransport } from "./transport.ts";
