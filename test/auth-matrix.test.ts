import { describe, expect, it } from "vitest";
import { useTestApp } from "./support/app.ts";

/** Every dashboard API route that exists, now and later: 401 without a session, 403 for members on admin routes. */
describe("auth on every protected route", async () => {
  const t = await useTestApp();
  await t.installTeam("T0AUTH");
  await t.addMember("T0AUTH", "U0PLAIN");
  const member = await t.signIn("T0AUTH", "U0PLAIN");
  const all = t.app.server.routeList.filter((r) => r.url.startsWith("/dashboard/api/"));
  // Public routes work without a session on purpose; each one is listed here so a new one is a decision.
  const api = all.filter((r) => !r.public);
  const path = (url: string) => url.replace(/:(\w+)/g, "X$1");

  it("finds the routes", () => {
    expect(api.length).toBeGreaterThanOrEqual(5);
    expect(api.some((r) => r.admin)).toBe(true);
    expect(all.filter((r) => r.public).map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /dashboard/api/oauth/requests/:id/resume",
    ]);
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

  const asMember = (r: { method: string; url: string }, cookie = member) =>
    t.inject({
      method: r.method as "GET",
      url: path(r.url),
      headers: { cookie, "content-type": "application/json" },
      payload: r.method === "GET" || r.method === "DELETE" ? undefined : "{}",
    });

  it("answers 403 {error: Admin required} to a member on admin routes", async () => {
    for (const r of api.filter((x) => x.admin)) {
      const res = await asMember(r);
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json(), `${r.method} ${r.url}`).toEqual({ error: "Admin required" });
    }
  });

  // The spec fixes the error text for every admin-only endpoint; the Celebrations ones say which admin beside it.
  it("answers the same 403 {error: Admin required} on the routes for workspace or Celebrations admins", async () => {
    const celebrations = api.filter((x) => x.celebrationsAdmin);
    expect(celebrations.length).toBeGreaterThanOrEqual(8);
    for (const r of celebrations) {
      const res = await asMember(r);
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json(), `${r.method} ${r.url}`).toEqual({
        error: "Admin required",
        detail: "Workspace admin or Celebrations admin required",
      });
    }
  });

  // Catches a route that refuses members in its own code without being listed as admin-only above.
  it("never answers a member 403 with another error text, on any route", async () => {
    const fresh = await t.signIn("T0AUTH", "U0PLAIN");
    const refused: string[] = [];
    for (const r of api.filter((x) => x.url !== "/dashboard/api/logout")) {
      const res = await asMember(r, fresh);
      if (res.statusCode !== 403) continue;
      refused.push(`${r.method} ${r.url}`);
      expect(res.json().error, `${r.method} ${r.url}`).toBe("Admin required");
    }
    expect(refused.length).toBeGreaterThanOrEqual(api.filter((x) => x.admin || x.celebrationsAdmin).length);
  });
});
