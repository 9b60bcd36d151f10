/** The session feature's public face: other features (and app.ts, tests, demo, bench) import from here only. */
export { AFTER_LOGIN_COOKIE, AFTER_LOGIN_TTL_SECONDS, afterLoginCookieOptions } from "./after-login.ts";
export { issueLoginToken, LOGIN_TOKEN_TTL_SECONDS, loginUrl } from "./login-token.ts";
export { sessionPersonalData } from "./personal-data.ts";
export { sessionPruneSteps } from "./retention.ts";
export { sessionRoutes } from "./session.routes.ts";
export { claimNonce, deleteTeamSessions, findSessionUser, insertSession } from "./sessions.repo.ts";
export { sessionLookup } from "./sessions.service.ts";
