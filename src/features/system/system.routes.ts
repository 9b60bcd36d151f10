import type { FastifyInstance } from "fastify";
import type { Deps } from "../../deps.ts";
import { PACKAGE_VERSION } from "../../http/server.ts";

const DB_TIMEOUT_MS = 2_000;

export function systemRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/", async () => ({ name: "upbeat", version: PACKAGE_VERSION, status: "ok" }));

  app.get("/healthz", async (req, reply) => {
    try {
      await deps.database.ping(DB_TIMEOUT_MS);
      return { status: "ok", db: "connected" };
    } catch (err) {
      req.log.warn({ err: err instanceof Error ? err.message : String(err) }, "health check: database unreachable");
      return reply.status(503).send({ status: "error", db: "unreachable" });
    }
  });
}
