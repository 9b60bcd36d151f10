/** The insights feature's public face: stats, reports, analytics, the CSV export and the MCP tools' queries. */
export { csvCell, csvLine } from "./csv.ts";
export { CSV_COLUMNS, csvChunks, exportRoutes, exportRows } from "./export.routes.ts";
// The raw queries, for the benchmarks that time each statement on its own.
export {
  blockersByDay,
  memberParticipation,
  moodCounts,
  type ParticipationRow,
  participationByDay,
  type StandupRow,
  standupsBetween,
  statsFor,
} from "./insights.repo.ts";
export { insightRoutes } from "./insights.routes.ts";
export {
  getAnalytics,
  getReports,
  getStats,
  listActiveBlockers,
  listStandups,
  MOOD_SCORE,
  moodSummary,
  moodTrend,
  overallPct,
  participationByMember,
  participationDaily,
  searchAnswers,
  type WindowQuery,
  windowFor,
} from "./insights.service.ts";
export { labelAnswers, presentResponse, type ResponseRecord } from "./responses.presenter.ts";
