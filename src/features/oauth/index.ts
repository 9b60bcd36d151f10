/** The OAuth authorization server for MCP (issue 26): its public face for app.ts, src/mcp and maintenance. */
import type { Deps } from "../../deps.ts";
import type { App } from "../../http/server.ts";
import { authorizeRoutes } from "./authorize.routes.ts";
import { consentRoutes } from "./consent.routes.ts";
import { oauthServerRoutes } from "./server.routes.ts";

export { type AccessOwner, authenticateAccessToken } from "./access-token.ts";
export { CORS_HEADERS, preflight, withCors } from "./cors.ts";
export { oauthGrantRoutes } from "./grants.routes.ts";
export {
  ACCESS_PREFIX,
  issuerOf,
  REFRESH_PREFIX,
  resourceMetadataUrlOf,
  resourceOf,
  SCOPE_DESCRIPTIONS,
} from "./oauth.model.ts";
export { revokeGrant } from "./oauth.repo.ts";
export { oauthPruneSteps } from "./retention.ts";

/** Discovery, registration, authorization, consent API, token and revocation. */
export function oauthRoutes(app: App, deps: Deps): void {
  oauthServerRoutes(app, deps);
  authorizeRoutes(app, deps);
  consentRoutes(app, deps);
}
