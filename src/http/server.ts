import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import cookie from "@fastify/cookie";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Deps } from "../deps.ts";
import { PACKAGE_JSON } from "../lib/build-paths.ts";
import { registerAuth, type SessionLookup } from "./auth.ts";
import { registerErrorHandling } from "./error-handler.ts";
import { registerNulGuard } from "./nul-guard.ts";
import { registerOpenApi } from "./openapi.ts";

export const PACKAGE_VERSION: string = JSON.parse(readFileSync(PACKAGE_JSON, "utf8")).version;

export const BODY_LIMIT = 1024 * 1024;

/** The server as routes see it: request and reply types come from each route's zod schemas. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export type Route = (app: App, deps: Deps) => void | Promise<void>;

export interface RouteInfo {
  method: string;
  url: string;
  admin: boolean;
  /** Refused to plain members although not `admin`: a Celebrations admin may call it too. */
  celebrationsAdmin: boolean;
  /** A /dashboard/api route that works without a session (`config.public`). */
  public: boolean;
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
  if (deps.config.trustProxyHops === 0) {
    // Behind a proxy nobody told us about, every client has the proxy's address: per-address limits would lump
    // them together (and bad signatures from anyone would block Slack). Said once per process.
    let warned = false;
    app.addHook("onRequest", async (req) => {
      if (warned || req.headers["x-forwarded-for"] === undefined) return;
      warned = true;
      req.log.warn(
        "requests carry X-Forwarded-For but TRUST_PROXY_HOPS is 0: per-address limits see the proxy's address; set TRUST_PROXY_HOPS to the number of proxies in front",
      );
    });
  }
  const routeList: RouteInfo[] = [];
  app.decorate("routeList", routeList);
  app.addHook("onRoute", (r) => {
    // Every route states its responses (and its input) as zod schemas: that is what validates input,
    // serialises output and documents the route in /openapi.json. Only hidden routes (static files) may skip it.
    const schema = r.schema as { response?: object; hide?: boolean } | undefined;
    if (!schema?.hide && Object.keys(schema?.response ?? {}).length === 0) {
      throw new Error(`route ${String(r.method)} ${r.url} declares no response schema`);
    }
    for (const method of [r.method].flat()) {
      if (method !== "HEAD")
        routeList.push({
          method,
          url: r.url,
          admin: Boolean(r.config?.admin),
          celebrationsAdmin: Boolean(r.config?.celebrationsAdmin),
          public: Boolean(r.config?.public),
        });
    }
  });
  // One observation per request, labelled by the route pattern (never the raw URL: ids and tokens stay out).
  app.addHook("onResponse", (req, reply, done) => {
    deps.metrics.observeHttp(req.routeOptions.url, req.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
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

  // A bodiless POST or PUT is an empty object, as an empty JSON body is (logout, feed-token, MCP key names).
  app.addHook("preValidation", async (req) => {
    const url = req.routeOptions.url ?? "";
    if (req.body === undefined && req.routeOptions.schema?.body && url.startsWith("/dashboard/api/")) req.body = {};
  });
  registerNulGuard(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(cookie);
  registerErrorHandling(app);
  registerAuth(app, deps, sessions);
  await registerOpenApi(app, PACKAGE_VERSION);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const route of routes) await route(typed, deps);
  return app;
}
