/** The insights feature's public face: stats, reports, analytics, the CSV export and the MCP tools' queries. */
export { CSV_BOM, crlfRecords, csvCell, csvLine, DASH_FORMULA } from "./csv.ts";
export { copyCsv, copyCsvStatement } from "./export.copy.ts";
export { CSV_COLUMNS, csvChunks, exportRoutes, exportRows } from "./export.routes.ts";
// The raw queries, for the benchmarks that time each statement on its own.
export type { Filters } from "./filters.repo.ts";
export {
  blockersByDay,
  moodCounts,
  type PageKey,
  responseTotals,
  type StandupRow,
  standupsBetween,
} from "./insights.repo.ts";
export { insightRoutes } from "./insights.routes.ts";
export {
  type FilterQuery,
  getAnalytics,
  getStats,
  listActiveBlockers,
  listStandups,
  MOOD_SCORE,
  moodSummary,
  moodTrend,
  overallPct,
  participationBoth,
  participationByMember,
  participationDaily,
  resolveFilters,
  searchAnswers,
  type WindowQuery,
  windowFor,
} from "./insights.service.ts";
export {
  memberParticipation,
  type ParticipationRow,
  participationAndMembers,
  participationByDay,
  type StandupParticipation,
  statsFor,
} from "./participation.repo.ts";
export { getQuestionStats, presentQuestionStat, questionStatsFor } from "./question-stats.service.ts";
export { decodeCursor, encodeCursor, getReports, getToday, type ReportsQuery } from "./reports.service.ts";
export { labelAnswers, presentResponse, type ResponseRecord } from "./responses.presenter.ts";
