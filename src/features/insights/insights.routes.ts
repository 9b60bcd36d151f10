import { analytics, mutationErrors, reports, sessionErrors, stats, windowQuery } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { getAnalytics, getReports, getStats } from "./insights.service.ts";

const badWindow = { 400: mutationErrors[400] };

export function insightRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/stats",
    { schema: { summary: "Today's numbers for the workspace", response: { 200: stats, ...sessionErrors } } },
    async (req) => getStats(deps, requireSession(req).teamId),
  );
  app.get(
    "/dashboard/api/reports",
    {
      schema: {
        summary: "Standup answers and daily participation in a window",
        querystring: windowQuery,
        response: { 200: reports, ...sessionErrors, ...badWindow },
      },
    },
    async (req) => getReports(deps, requireSession(req).teamId, req.query),
  );
  app.get(
    "/dashboard/api/analytics",
    {
      schema: {
        summary: "Mood trend, participation per day and per member, blockers per day",
        querystring: windowQuery,
        response: { 200: analytics, ...sessionErrors, ...badWindow },
      },
    },
    async (req) => getAnalytics(deps, requireSession(req).teamId, req.query),
  );
}
