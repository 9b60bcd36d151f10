import { z } from "zod";
import type { SocketTransport } from "../../chat/socket/socket-transport.ts";
import { health, healthDown, systemInfo } from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { prefersHtml } from "../../http/accepts.ts";
import { type App, PACKAGE_VERSION } from "../../http/server.ts";
import { SETUP_PAGE_CSP, setupPage } from "../manifest/index.ts";
import { frontDoorPage } from "./front-door.page.ts";

const DB_TIMEOUT_MS = 2_000;

/** The dashboard's icon (web/index.html inlines the same drawing). */
const FAVICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='8' fill='#4f46e5'/>" +
  "<path d='M7 19l5-6 5 4 8-9' stroke='white' stroke-width='3' fill='none' stroke-linecap='round' stroke-linejoin='round'/></svg>";

/** The system routes; `socket` is the Socket Mode transport when there is one (its state is part of health). */
export const systemRoutes =
  (socket: Pick<SocketTransport, "state" | "down"> | undefined) =>
  (app: App, deps: Deps): void =>
    routes(app, deps, socket);

function routes(app: App, deps: Deps, socket: Pick<SocketTransport, "state" | "down"> | undefined): void {
  app.get(
    "/",
    {
      schema: {
        summary: "Name, version and status of the instance",
        description:
          "JSON for API clients; a browser (Accept naming text/html before application/json) gets a small page with the same facts and links to install, the dashboard, the API description and the Slack app manifest. An instance without Slack credentials shows a browser the setup page instead: the Slack app manifest for this instance, a link that creates the app from it, and the variables to set next.",
        response: {
          200: {
            description: "The instance",
            content: { "application/json": { schema: systemInfo }, "text/html": { schema: z.string() } },
          },
        },
      },
    },
    async (req, reply) => {
      reply.header("vary", "Accept");
      if (prefersHtml(req.headers.accept)) {
        // A fresh instance (no Slack credentials yet) guides its operator through creating the Slack app instead.
        const setup = !deps.config.slackConfigured;
        return reply
          .type("text/html; charset=utf-8")
          .header(
            "content-security-policy",
            setup ? SETUP_PAGE_CSP : "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
          )
          .send(
            setup
              ? setupPage(deps.config)
              : frontDoorPage(PACKAGE_VERSION, {
                  oneWorkspace: deps.config.chatBotToken !== undefined,
                  socketMode: deps.config.chatAppToken !== undefined,
                }),
          );
      }
      return reply
        .type("application/json; charset=utf-8")
        .send({ name: "upbeat", version: PACKAGE_VERSION, status: "ok" as const });
    },
  );

  // Browsers ask for /favicon.ico on pages without an icon link (the front door, sign-in and feed pages).
  app.get(
    "/favicon.ico",
    {
      logLevel: "warn",
      schema: {
        summary: "The icon browsers ask for",
        response: {
          200: { description: "An SVG icon", content: { "image/svg+xml": { schema: z.string() } } },
        },
      },
    },
    async (_req, reply) =>
      reply.type("image/svg+xml").header("cache-control", "public, max-age=86400").send(FAVICON_SVG),
  );

  app.get(
    "/healthz",
    {
      schema: {
        summary: "Health, including the database and Slack's socket",
        response: {
          200: health,
          503: healthDown.describe(
            "The database is unreachable, or Socket Mode is configured and has not been connected for more than 30 s",
          ),
        },
      },
    },
    async (req, reply) => {
      const socketState = socket?.state ?? ("off" as const);
      try {
        await deps.database.ping(DB_TIMEOUT_MS);
      } catch (err) {
        req.log.warn({ err: err instanceof Error ? err.message : String(err) }, "health check: database unreachable");
        return reply.status(503).send({ status: "error", db: "unreachable", socket: socketState });
      }
      if (socket?.down) {
        req.log.warn("health check: Socket Mode not connected for more than 30 s");
        return reply.status(503).send({ status: "error", db: "connected", socket: socketState });
      }
      return { status: "ok" as const, db: "connected" as const, socket: socketState };
    },
  );
}
