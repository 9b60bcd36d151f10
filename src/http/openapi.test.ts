import { Validator } from "@seriousme/openapi-schema-validator";
import type Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/support/app.ts";
import { buildServer } from "./server.ts";

type Operation = { security?: Record<string, string[]>[]; responses?: Record<string, unknown> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** `/feed/:token` → `/feed/{token}`, `/dashboard/*` → `/dashboard/{*}`: how the document writes paths. */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{path}");

/**
 * Hidden on purpose: static files of the dashboard build, and the feed's catch-alls (they only answer the
 * 404 page that /feed/{token} documents; OpenAPI allows one path per shape).
 */
const HIDDEN = new Set(["GET /dashboard/assets/*", "GET /feed", "GET /feed/*"]);

let t: TestApp;
let doc: Document;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.inject({ method: "GET", url: "/openapi.json" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(() => t.close());

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.openapi).toBe("3.1.0");
  });

  it("is checked by a validator that does refuse a broken document", async () => {
    const broken = structuredClone(doc) as unknown as Record<string, unknown>;
    (broken.paths as Record<string, unknown>)["/broken"] = { get: { responses: "none" } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("lists every registered route with its responses", () => {
    const routes = t.app.server.routeList;
    expect(routes.length).toBeGreaterThan(40);
    const missing: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      if (HIDDEN.has(key)) continue;
      const op = doc.paths[documentPath(route.url)]?.[route.method.toLowerCase()];
      if (!op || Object.keys(op.responses ?? {}).length === 0) missing.push(key);
    }
    expect(missing).toEqual([]);
  });

  it("gives every operation a unique operationId and every success a description", () => {
    const ids: string[] = [];
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops) as (Operation & { operationId?: string })[]) {
        ids.push(op.operationId ?? "");
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          const description = (response as { description?: string }).description;
          expect(description && description !== "Default Response", `${op.operationId} ${status}`).toBeTruthy();
        }
      }
    }
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("getReports");
    expect(ids).toContain("putStandupsById");
  });

  it("names the session cookie on the dashboard API and the bearer key on POST /mcp", () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith("/dashboard/api/")) continue;
      for (const [method, op] of Object.entries(ops)) {
        // The one public dashboard route (the consent page's resume, signed out) needs no session.
        if (path === "/dashboard/api/oauth/requests/{id}/resume") {
          expect(op.security, `${method} ${path}`).toBeUndefined();
          continue;
        }
        expect(op.security, `${method} ${path}`).toEqual([{ session: [] }]);
        expect(op.responses?.["401"], `${method} ${path} documents its 401`).toBeDefined();
      }
    }
    expect(doc.paths["/mcp"]?.post?.security).toEqual([{ mcpKey: [] }]);
    expect(doc.paths["/mcp"]?.get?.security).toBeUndefined();
    expect(doc.paths["/feed/{token}"]?.get?.security).toBeUndefined();
  });

  it("documents the channel check of the schedule routes: a 400 for a channel the workspace lacks, a 500 when Slack is down", () => {
    for (const path of ["/dashboard/api/standups", "/dashboard/api/schedules"]) {
      for (const [method, at] of [
        ["post", path],
        ["put", `${path}/{id}`],
      ] as const) {
        const responses = doc.paths[at]?.[method]?.responses as Record<string, { description?: string }> | undefined;
        expect(responses?.["400"]?.description, `${method} ${at}`).toMatch(/channel_id: no such channel/);
        expect(responses?.["500"]?.description, `${method} ${at}`).toMatch(/Slack could not be reached/);
      }
    }
  });

  it("documents the admin-only routes' 403", () => {
    for (const route of t.app.server.routeList.filter((r) => r.admin)) {
      const op = doc.paths[documentPath(route.url)]?.[route.method.toLowerCase()];
      expect(op?.responses?.["403"], `${route.method} ${route.url}`).toBeDefined();
    }
  });
});

describe("a route without a schema", () => {
  it("stops the server from starting, so nothing goes undocumented or unvalidated", async () => {
    const unschematised = async (app: ReturnType<typeof Fastify>) => {
      app.get("/dashboard/api/undocumented", async () => ({ ok: true }));
    };
    const noSessions = { findSession: async () => undefined, extendSession: async () => {} };
    await expect(buildServer(t.deps, noSessions, [unschematised as never])).rejects.toThrow(
      "route GET /dashboard/api/undocumented declares no response schema",
    );
  });
});
