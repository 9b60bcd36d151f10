import { describe, expect, it } from "vitest";
import { useTestApp } from "./support/app.ts";

/** Every dashboard API route that exists, now and later: 401 without a session, 403 for members on admin routes. */
describe("auth on every protected route", async () => {
  const t = await useTestApp();
  await t.installTeam("T0AUTH");
  await t.addMember("T0AUTH", "U0PLAIN");
  const member = await t.signIn("T0AUTH", "U0PLAIN");
  const api = t.app.server.routeList.filter((r) => r.url.startsWith("/dashboard/api/"));
  const path = (url: string) => url.replace(/:(\w+)/g, "X$1");

  it("finds the routes", () => {
    expect(api.length).toBeGreaterThanOrEqual(5);
    expect(api.some((r) => r.admin)).toBe(true);
  });

  it("answers 401 {error: Unauthorized} without a session", async () => {
    for (const r of api) {
      const res = await t.inject({
        method: r.method as "GET",
        url: path(r.url),
        headers: { "content-type": "application/json" },
        payload: r.method === "GET" || r.method === "DELETE" ? undefined : "{}",
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(res.json(), `${r.method} ${r.url}`).toEqual({ error: "Unauthorized" });
    }
  });

  it("answers 401 for a made-up session cookie", async () => {
    for (const r of api.filter((x) => x.method === "GET")) {
      const res = await t.inject({ method: "GET", url: path(r.url), headers: { cookie: "svc_session=not-a-session" } });
      expect(res.statusCode, r.url).toBe(401);
    }
  });

  it("answers 403 {error: Admin required} to a member on admin routes", async () => {
    for (const r of api.filter((x) => x.admin)) {
      const res = await t.inject({
        method: r.method as "GET",
        url: path(r.url),
        headers: { cookie: member, "content-type": "application/json" },
        payload: r.method === "GET" || r.method === "DELETE" ? undefined : "{}",
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json(), `${r.method} ${r.url}`).toEqual({ error: "Admin required" });
    }
  });
});
