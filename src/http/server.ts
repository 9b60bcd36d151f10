import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import cookie from "@fastify/cookie";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Deps } from "../deps.ts";
import { registerAuth, type SessionLookup } from "./auth.ts";
import { registerErrorHandling } from "./error-handler.ts";

export const PACKAGE_VERSION: string = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version;

export const BODY_LIMIT = 1024 * 1024;

export type Route = (app: FastifyInstance, deps: Deps) => void | Promise<void>;

export interface RouteInfo {
  method: string;
  url: string;
  admin: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: Deps;
    /** Every route registered, for the auth matrix test and docs. */
    routeList: RouteInfo[];
  }
}

const SAFE_REQUEST_ID = /^[\w.-]{1,64}$/;

/** Assembles the HTTP server; features plug their routes in through `routes`. */
export async function buildServer(deps: Deps, sessions: SessionLookup, routes: Route[]): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    // Only trust X-Forwarded-For from as many proxies as the operator says sit in front; otherwise any
    // client could pick its own address and slip past per-IP rate limits.
    trustProxy: (_address: string, hop: number) => hop < deps.config.trustProxyHops,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    forceCloseConnections: false,
  });
  app.decorate("deps", deps);
  const routeList: RouteInfo[] = [];
  app.decorate("routeList", routeList);
  app.addHook("onRoute", (r) => {
    for (const method of [r.method].flat()) {
      if (method !== "HEAD") routeList.push({ method, url: r.url, admin: Boolean(r.config?.admin) });
    }
  });
  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
    reply.header("x-content-type-options", "nosniff");
  });

  // An empty JSON body is an empty object (bodiless POSTs such as logout), malformed JSON is a 400.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = new Error("Malformed JSON body") as Error & { statusCode: number };
      err.statusCode = 400;
      done(err, undefined);
    }
  });

  await app.register(cookie);
  registerErrorHandling(app);
  registerAuth(app, deps, sessions);
  for (const route of routes) await route(app, deps);
  return app;
}
