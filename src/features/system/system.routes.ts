import { health, healthDown, systemInfo } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { type App, PACKAGE_VERSION } from "../../http/server.ts";

const DB_TIMEOUT_MS = 2_000;

export function systemRoutes(app: App, deps: Deps): void {
  app.get(
    "/",
    { schema: { summary: "Name, version and status of the instance", response: { 200: systemInfo } } },
    async () => ({ name: "upbeat", version: PACKAGE_VERSION, status: "ok" as const }),
  );

  app.get(
    "/healthz",
    {
      schema: {
        summary: "Health, including the database",
        response: { 200: health, 503: healthDown.describe("The database is unreachable") },
      },
    },
    async (req, reply) => {
      try {
        await deps.database.ping(DB_TIMEOUT_MS);
        return { status: "ok" as const, db: "connected" as const };
      } catch (err) {
        req.log.warn({ err: err instanceof Error ? err.message : String(err) }, "health check: database unreachable");
        return reply.status(503).send({ status: "error", db: "unreachable" });
      }
    },
  );
}
