import { z } from "zod";
import { adminErrors, failedChatEvent } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { requireSession } from "../../http/auth.ts";
import type { App } from "../../http/server.ts";
import { listFailed } from "./intake.repo.ts";

/** The newest failed deliveries an admin sees; older ones stay until retention (30 days). */
export const FAILED_EVENTS_SHOWN = 50;

export function failedEventRoutes(app: App, deps: Deps): void {
  app.get(
    "/dashboard/api/chat/failed-events",
    {
      config: { admin: true },
      schema: {
        summary: "Slack events, commands and interactions that could not be processed, newest first (at most 50)",
        description:
          "Each was stored and acknowledged, then tried up to 5 times over about 45 minutes (or once, for a button " +
          "or a command that failed after answering) and failed every time. Kept for 30 days.",
        response: { 200: z.array(failedChatEvent), ...adminErrors },
      },
    },
    async (req) =>
      (await listFailed(deps.database, requireSession(req).teamId, FAILED_EVENTS_SHOWN)).map((r) => ({
        kind: r.kind,
        type: r.type,
        received_at: r.receivedAt.toISOString(),
        attempts: r.attempts,
        last_error: r.lastError,
        failed_at: r.updatedAt?.toISOString() ?? null,
      })),
  );
}
