import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";

export const OPENAPI_PATH = "/openapi.json";
export const SESSION_SCHEME = "session";
export const MCP_KEY_SCHEME = "mcpKey";
export const METRICS_TOKEN_SCHEME = "metricsToken";

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** Groups operations in the document by the first segment that names the area. */
function tagOf(url: string): string {
  if (url === "/" || url === "/healthz" || url === OPENAPI_PATH || url === "/metrics") return "system";
  if (url === "/install" || url === "/oauth/callback" || url === "/chat/oauth_redirect") return "install";
  if (url.startsWith("/chat/")) return "slack";
  if (url.startsWith("/mcp")) return "mcp";
  if (url.startsWith("/feed") || url.includes("/feed-token")) return "feed";
  const api = /^\/dashboard\/api\/([a-z-]+)/.exec(url)?.[1];
  if (!api) return "dashboard";
  if (api === "mcp" || api === "mcp-config") return "mcp";
  if (api === "standups") return "schedules";
  if (["stats", "reports", "analytics", "export"].includes(api)) return "insights";
  if (api === "me" || api === "logout") return "session";
  return api;
}

/** Catch-alls that only answer the feed's 404 page: the document describes that page under /feed/{token}. */
const UNDOCUMENTED = new Set(["/feed", "/feed/*"]);

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

/** `GET /dashboard/api/standups/:id` → `getStandupsById`: stable names for client generators. */
export function operationIdOf(method: string, url: string): string {
  let segments = url.split("/").filter(Boolean);
  if (segments[0] === "dashboard" && segments[1] === "api") segments = segments.slice(2);
  const name = segments
    .map((s) => (s.startsWith(":") ? `By${pascal(s.slice(1))}` : s === "*" ? "Path" : pascal(s)))
    .join("");
  return `${method.toLowerCase()}${name || "Root"}`;
}

const SUCCESS: Record<string, string> = { "200": "Success", "201": "Created", "202": "Accepted", "302": "Redirect" };

/**
 * zod → JSON Schema, plus what every route of a kind shares: /dashboard/api needs the session cookie,
 * POST /mcp the bearer key; each operation gets an operationId, each success a description.
 */
function transform(input: TransformInput) {
  const route = (input as { route?: { method: string | string[]; config?: { public?: boolean } } }).route;
  if (UNDOCUMENTED.has(input.url)) return { schema: { hide: true }, url: input.url };
  const out = jsonSchemaTransform(input);
  if (!out.schema || (out.schema as { hide?: boolean }).hide) return out;
  const schema = out.schema as Record<string, unknown>;
  const method = [route?.method ?? "get"].flat()[0]!;
  schema.operationId ??= operationIdOf(method, input.url);
  schema.tags ??= [tagOf(input.url)];
  for (const [status, response] of Object.entries((schema.response ?? {}) as Record<string, Record<string, unknown>>)) {
    if (SUCCESS[status] && response && typeof response === "object" && !response.description) {
      response.description = SUCCESS[status];
    }
  }
  // A trailing wildcard is a path parameter named "*" to Fastify; a document names it.
  if (input.url.endsWith("/*")) {
    const params = schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    if (params?.properties?.["*"]) {
      params.properties.path = params.properties["*"];
      delete params.properties["*"];
      params.required = (params.required ?? []).map((p) => (p === "*" ? "path" : p));
    }
    return { schema, url: `${input.url.slice(0, -2)}/{path}` };
  }
  if (input.url.startsWith("/dashboard/api/") && !route?.config?.public) schema.security ??= [{ [SESSION_SCHEME]: [] }];
  if (input.url === "/mcp" && [route?.method].flat().includes("POST")) schema.security ??= [{ [MCP_KEY_SCHEME]: [] }];
  return out;
}

type TransformObjectInput = Parameters<typeof jsonSchemaTransformObject>[0];

/**
 * Components from the zod registry, keeping only those the paths reach: the provider emits an input and an
 * output variant of every registered schema, and responses use only the output ones.
 */
function transformObject(input: TransformObjectInput) {
  const doc = jsonSchemaTransformObject(input) as {
    paths?: unknown;
    components?: { schemas?: Record<string, unknown> };
  };
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  const reached = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== "object") return;
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith("#/components/schemas/")) {
        const name = child.slice("#/components/schemas/".length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  visit(doc.paths);
  doc.components!.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name)));
  return doc;
}

/** The OpenAPI 3.1 document, generated from the zod schemas every route declares. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Upbeat",
        version,
        description:
          "Self-hosted standup bot for Slack: the dashboard API, the public feed, the MCP endpoint and the Slack " +
          "endpoints. Dashboard routes need the session cookie that a sign-in link from Slack sets; every " +
          'failure of the JSON API is `{"error": "..."}`.',
      },
      components: {
        securitySchemes: {
          [SESSION_SCHEME]: {
            type: "apiKey",
            in: "cookie",
            name: "svc_session",
            description: "Set by GET /dashboard/login?t=<login token>; the token comes from Slack (/upbeat, App Home).",
          },
          [MCP_KEY_SCHEME]: {
            type: "http",
            scheme: "bearer",
            description: "An MCP API key (svc_…) that a workspace admin creates in the dashboard.",
          },
          [METRICS_TOKEN_SCHEME]: {
            type: "http",
            scheme: "bearer",
            description: "The METRICS_TOKEN of the instance's configuration (GET /metrics).",
          },
        },
      },
    },
    transform,
    transformObject: transformObject as typeof jsonSchemaTransformObject,
  });

  app.get(
    OPENAPI_PATH,
    {
      schema: {
        summary: "This document",
        response: { 200: z.looseObject({ openapi: z.string() }).describe("OpenAPI 3.1 document") },
      },
    },
    async (_req, reply) => {
      reply.header("cache-control", "no-cache");
      return app.swagger();
    },
  );
}
