import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { CLIENT_ROUTES, createWebRoutes } from "./web.routes.ts";

/** The first path segment of every page the dashboard's router knows (web/src/app.tsx). */
function routerPages(): Set<string> {
  const source = readFileSync(new URL("../../../web/src/app.tsx", import.meta.url), "utf8");
  const pages = [...source.matchAll(/path === "\/([a-z-]+)/g)].map((m) => m[1]!);
  return new Set(pages);
}

describe("dashboard addresses", () => {
  it("every page of the dashboard's router answers 200 when opened directly, and only those", async () => {
    const pages = routerPages();
    expect(pages.size).toBeGreaterThan(5);
    expect(new Set(CLIENT_ROUTES)).toEqual(pages);

    const dist = mkdtempSync(join(tmpdir(), "upbeat-web-"));
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>Upbeat</title>");
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    createWebRoutes({ distDir: dist })(app, { log: { warn() {} } as never });
    for (const page of pages) {
      const res = await app.inject({ method: "GET", url: `/dashboard/${page}` });
      expect(res.statusCode, page).toBe(200);
      expect((await app.inject({ method: "GET", url: `/dashboard/${page}/7` })).statusCode, page).toBe(200);
    }
    expect((await app.inject({ method: "GET", url: "/dashboard/no-such-page" })).statusCode).toBe(404);
    await app.close();
  });
});
