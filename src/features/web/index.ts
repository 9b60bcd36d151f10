/** The web dashboard feature's public face: other features import from here only. */
export { DASHBOARD_CSP, DEMO_SIGN_IN_META, sendDashboardIndex, WEB_DIST_DIR } from "./dashboard-page.ts";
export { CLIENT_ROUTES, createWebRoutes, webRoutes } from "./web.routes.ts";
