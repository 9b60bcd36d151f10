import {
  analytics,
  errorBody,
  filterQuery,
  mutationErrors,
  reports,
  reportsQuery,
  sessionErrors,
  stats,
  today,
  windowQuery,
} from "../../contract/index.ts";
import { questionStats, questionStatsQuery } from "../../contract/question-stats.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { getAnalytics, getStats } from "./insights.service.ts";
import { getQuestionStats } from "./question-stats.service.ts";
import { getReports, getToday } from "./reports.service.ts";

const badQuery = { 400: mutationErrors[400] };
const noSchedule = { 404: errorBody.describe("schedule_id is not a standup of this workspace") };

export function insightRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/stats",
    {
      schema: {
        summary: "Today's numbers for the workspace, one standup or one member",
        querystring: filterQuery,
        response: { 200: stats, ...sessionErrors, ...badQuery, ...noSchedule },
      },
    },
    async (req) => getStats(deps, requireSession(req).teamId, req.query),
  );
  app.get(
    "/dashboard/api/today",
    {
      schema: {
        summary: "Today by standup: answers so far and who has not answered yet",
        response: { 200: today, ...sessionErrors },
      },
    },
    async (req) => getToday(deps, requireSession(req).teamId),
  );
  app.get(
    "/dashboard/api/reports",
    {
      schema: {
        summary: "A page of standup answers, with the whole window's summary and daily participation",
        description:
          "Pages by keyset: pass next_cursor as cursor until it is null. Pages stay stable while answers come in.",
        querystring: reportsQuery,
        response: { 200: reports, ...sessionErrors, ...badQuery, ...noSchedule },
      },
    },
    async (req) => getReports(deps, requireSession(req).teamId, req.query),
  );
  app.get(
    "/dashboard/api/analytics",
    {
      schema: {
        summary: "Mood trend, participation per day and per member, blockers per day",
        querystring: windowQuery.extend(filterQuery.shape),
        response: { 200: analytics, ...sessionErrors, ...badQuery, ...noSchedule },
      },
    },
    async (req) => getAnalytics(deps, requireSession(req).teamId, req.query),
  );
  app.get(
    "/dashboard/api/question-stats",
    {
      schema: {
        summary: "One standup's typed questions: answers per option, the average and trend of numbers",
        description:
          "Questions that are not free text, as the standup's runs in the window asked them. Anonymous questions " +
          "count only their anonymous answers and show nothing (hidden: true) below five answers.",
        querystring: questionStatsQuery,
        response: { 200: questionStats, ...sessionErrors, ...badQuery, ...noSchedule },
      },
    },
    async (req) => getQuestionStats(deps, requireSession(req).teamId, req.query),
  );
}
