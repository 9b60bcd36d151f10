import type { FastifyInstance } from "fastify";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import { getAnalytics, getReports, getStats, type WindowQuery } from "./insights.service.ts";

export function insightRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/dashboard/api/stats", async (req) => getStats(deps, requireSession(req).teamId));
  app.get<{ Querystring: WindowQuery }>("/dashboard/api/reports", async (req) =>
    getReports(deps, requireSession(req).teamId, req.query),
  );
  app.get<{ Querystring: WindowQuery }>("/dashboard/api/analytics", async (req) =>
    getAnalytics(deps, requireSession(req).teamId, req.query),
  );
}
