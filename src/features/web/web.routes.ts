import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { html } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { type DashboardIndexOptions, sendDashboardIndex, WEB_DIST_DIR } from "./dashboard-page.ts";

/** Top-level pages of the single-page app (web/src/app.tsx); anything else gets the app with a 404. */
export const CLIENT_ROUTES: ReadonlySet<string> = new Set([
  "standups",
  "reports",
  "blockers",
  "analytics",
  "kudos",
  "members",
  "ai-access",
  "webhooks",
  "feed",
  "rules",
  "email",
  "profile",
  "profiles",
  "celebrations",
  "calendar",
  "time-off",
  // The consent page an AI client's OAuth sign-in sends people to.
  "connect",
]);

const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * Serves the built dashboard: hashed files under /dashboard/assets/ (cached for a year, pre-compressed
 * .br/.gz when the browser accepts them) and index.html for the app's own addresses. GET /dashboard itself
 * belongs to the session routes (it exchanges `?t=` login tokens first), which answer the same index.html.
 */
export function createWebRoutes(opts: { distDir?: string } = {}) {
  const distDir = opts.distDir ?? WEB_DIST_DIR;
  return (
    app: FastifyInstance,
    deps: Pick<Deps, "log"> & {
      config?: Pick<Deps["config"], "demoSignIn">;
      outbound?: Pick<Deps["outbound"], "allowPlainHttp">;
    },
  ): void => {
    const demoSignIn = deps.config?.demoSignIn;
    const loopbackImages = deps.outbound?.allowPlainHttp;
    if (!existsSync(join(distDir, "index.html"))) {
      deps.log.warn({ distDir }, "dashboard not built: /dashboard answers 503 until `npm run build` runs");
    }
    app.register(async (scope) => {
      await scope.register(fastifyStatic, {
        root: join(distDir, "assets"),
        prefix: "/dashboard/assets/",
        decorateReply: false,
        index: false,
        // Files appear when a build runs after the server started: look them up per request.
        wildcard: true,
        immutable: true,
        maxAge: YEAR_MS,
        preCompressed: true,
        suppressWarning: true,
      });
    });

    app.get(
      "/dashboard/*",
      {
        schema: {
          summary: "The dashboard's own pages (the single-page app)",
          params: z.object({ "*": z.string() }),
          response: {
            200: html("The dashboard app"),
            404: html("The dashboard app, showing its not-found page"),
            503: html("The dashboard is not built yet"),
          },
        },
      },
      async (req: FastifyRequest<{ Params: { "*": string } }>, reply) =>
        dashboardPath(req.params["*"], reply, { distDir, demoSignIn, loopbackImages }),
    );
  };
}

async function dashboardPath(
  rest: string,
  reply: FastifyReply,
  opts: Omit<DashboardIndexOptions, "status">,
): Promise<FastifyReply> {
  const first = rest.split("/", 1)[0] ?? "";
  // The API and the sign-in exchange are never the app: unknown ones keep the JSON 404.
  if (first === "api" || first === "login" || first === "assets")
    return reply.callNotFound() as unknown as FastifyReply;
  const known = first === "" || CLIENT_ROUTES.has(first);
  return sendDashboardIndex(reply, { ...opts, status: known ? 200 : 404 });
}

export function webRoutes(app: FastifyInstance, deps: Deps): void {
  createWebRoutes()(app, deps);
}
