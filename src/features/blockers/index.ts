/** The blockers feature's public face: the dashboard's list, resolve and CSV of blocker items (issue 25). */
export { BLOCKER_CSV_COLUMNS, blockerCsv } from "./blockers.csv.ts";
export { type BlockerFilters, type BlockerRow, blockerCount, blockerRows } from "./blockers.repo.ts";
export { blockerRoutes } from "./blockers.routes.ts";
export { getBlocker, listBlockers, presentBlocker, resolveFromDashboard } from "./blockers.service.ts";
