/** The install feature's public face: app.ts wires it in from here. */
export {
  type ConfiguredWorkspace,
  configuredTeamId,
  installConfiguredWorkspace,
  singleWorkspace,
} from "./configured-workspace.ts";
export { installListeners, watchRefusedTokens } from "./install.listeners.ts";
export { installRoutes } from "./install.routes.ts";
export { BOT_SCOPES, BROWSER_COOKIE, installUrl } from "./install.service.ts";
export { installPersonalData } from "./personal-data.ts";
export { startTokenCheckScheduler, tokenCheckJobs, tokenCheckTick } from "./token-check.ts";
