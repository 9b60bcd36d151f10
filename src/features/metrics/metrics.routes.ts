import { z } from "zod";
import { errorBody } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { notFound, unauthorized } from "../../http/errors.ts";
import { METRICS_TOKEN_SCHEME } from "../../http/openapi.ts";
import type { App } from "../../http/server.ts";
import { safeEqual } from "../../lib/crypto.ts";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Whether the Authorization header carries the configured token (compared in constant time). */
export function presentsToken(header: string | undefined, token: string): boolean {
  const given = header === undefined ? undefined : BEARER.exec(header)?.[1];
  return given !== undefined && safeEqual(given, token);
}

/**
 * GET /metrics: the Prometheus text format of this instance. With METRICS_TOKEN it asks for that bearer token;
 * without, it is open outside production and answers 404 in production (the instance faces the internet there).
 */
export function metricsRoutes(app: App, deps: Deps): void {
  app.get(
    "/metrics",
    {
      schema: {
        summary: "Prometheus metrics of this instance (text format 0.0.4)",
        description:
          "Needs `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set. Without METRICS_TOKEN it is open " +
          "outside production, and off (404) in production.",
        security: [{ [METRICS_TOKEN_SCHEME]: [] }, {}],
        response: {
          200: {
            description: "Prometheus text exposition format",
            content: { "text/plain": { schema: z.string() } },
          },
          401: errorBody.describe("METRICS_TOKEN is set and the request does not carry it"),
          404: errorBody.describe("Production without METRICS_TOKEN: metrics are off"),
        },
      },
    },
    async (req, reply) => {
      const token = deps.config.metricsToken;
      if (token === undefined && deps.config.production) throw notFound();
      if (token !== undefined && !presentsToken(req.headers.authorization, token)) {
        reply.header("www-authenticate", 'Bearer realm="upbeat-metrics"');
        throw unauthorized();
      }
      const text = await deps.metrics.scrape();
      return reply.header("content-type", deps.metrics.contentType).header("cache-control", "no-store").send(text);
    },
  );
}
