import { z } from "zod";
import {
  kudo,
  LEADERBOARD_DEFAULT_DAYS,
  LEADERBOARD_LIMIT,
  leaderboardEntry,
  leaderboardQuery,
  mutationErrors,
  RECENT_KUDOS_LIMIT,
  sessionErrors,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { kudosWindow, leaderboard, recentKudos } from "./kudos.service.ts";

export function kudosRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/kudos",
    {
      schema: {
        summary: `The workspace's newest kudos (at most ${RECENT_KUDOS_LIMIT}), newest first`,
        response: { 200: z.array(kudo), ...sessionErrors },
      },
    },
    async (req) => recentKudos(deps, requireSession(req).teamId),
  );
  app.get(
    "/dashboard/api/kudos/leaderboard",
    {
      schema: {
        summary: "Who received the most kudos in the last `days` days",
        description:
          `Ranked by kudos_received, highest first, ties by name; at most ${LEADERBOARD_LIMIT} people. The window is ` +
          "today and the days before it in the workspace timezone.",
        querystring: leaderboardQuery,
        response: { 200: z.array(leaderboardEntry), ...sessionErrors, 400: mutationErrors[400] },
      },
    },
    async (req) => {
      const teamId = requireSession(req).teamId;
      const window = await kudosWindow(deps, teamId, req.query.days ?? LEADERBOARD_DEFAULT_DAYS);
      return leaderboard(deps, teamId, window);
    },
  );
}
