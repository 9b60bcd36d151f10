import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { signToken } from "../../lib/signed-token.ts";
import { issueLoginToken } from "./login-token.ts";
import { LOGIN_PER_MINUTE } from "./session.routes.ts";

describe("sign-in by login token and sessions", async () => {
  const t = await useTestApp();
  await t.installTeam("T0SES");
  await t.addMember("T0SES", "U0MEMBER");

  it("a fresh token sets svc_session (HttpOnly, SameSite=Lax, Secure) and redirects to /dashboard", async () => {
    const token = issueLoginToken(t.deps, "T0SES", "U0SESADMIN");
    const res = await t.inject({ method: "GET", url: `/dashboard/login?t=${encodeURIComponent(token)}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/dashboard");
    const cookie = String([res.headers["set-cookie"]].flat()[0]);
    expect(cookie).toMatch(/^svc_session=[\w-]{40,};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("Path=/");
    const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie: cookie.split(";")[0]! } });
    expect(me.json()).toEqual({
      user_id: "U0SESADMIN",
      team_id: "T0SES",
      team_name: "Team T0SES",
      role: "admin",
      ai_summaries_available: false,
    });
  });

  it("GET /dashboard?t= signs in the same way", async () => {
    const token = issueLoginToken(t.deps, "T0SES", "U0MEMBER");
    const res = await t.inject({ method: "GET", url: `/dashboard?t=${encodeURIComponent(token)}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/dashboard");
  });

  it("a token is refused once used", async () => {
    const token = issueLoginToken(t.deps, "T0SES", "U0MEMBER");
    expect((await t.inject({ method: "GET", url: `/dashboard/login?t=${token}` })).statusCode).toBe(302);
    const again = await t.inject({ method: "GET", url: `/dashboard/login?t=${token}` });
    expect(again.statusCode).toBe(410);
    expect(again.headers["content-type"]).toContain("text/html");
    expect(again.body).toContain("already used");
    expect(again.headers["set-cookie"]).toBeUndefined();
  });

  it("a token is refused after 5 minutes on the injected clock", async () => {
    const token = issueLoginToken(t.deps, "T0SES", "U0MEMBER");
    t.clock.advance(5 * 60_000 + 1_000);
    const res = await t.inject({ method: "GET", url: `/dashboard/login?t=${token}` });
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain("expired");
  });

  it("a token just inside 5 minutes still works", async () => {
    const token = issueLoginToken(t.deps, "T0SES", "U0MEMBER");
    t.clock.advance(4 * 60_000 + 50_000);
    expect((await t.inject({ method: "GET", url: `/dashboard/login?t=${token}` })).statusCode).toBe(302);
  });

  it("forged and malformed tokens are refused", async () => {
    const forged = signToken(Buffer.alloc(32, 7), {
      team_id: "T0SES",
      user_id: "U0SESADMIN",
      iat: Math.floor(t.clock.now().getTime() / 1000),
    });
    const real = issueLoginToken(t.deps, "T0SES", "U0MEMBER");
    const [body, sig] = real.split(".");
    const swapped = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), user_id: "U0SESADMIN" })).toString("base64url")}.${sig}`;
    for (const bad of [forged, swapped, "garbage", "", "a.b.c"]) {
      const res = await t.inject({ method: "GET", url: `/dashboard/login?t=${encodeURIComponent(bad)}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
  });

  it("the error page escapes nothing from the request into HTML", async () => {
    const res = await t.inject({
      method: "GET",
      url: `/dashboard/login?t=${encodeURIComponent("<script>alert(1)</script>")}`,
    });
    expect(res.body).not.toContain("<script>alert");
  });

  it("logout ends the session", async () => {
    const cookie = await t.signIn("T0SES", "U0MEMBER");
    const out = await t.inject({ method: "POST", url: "/dashboard/api/logout", headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    const me = await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual({ error: "Unauthorized" });
  });

  it("sessions slide: used within 30 days they live on, left alone for 30 days they end", async () => {
    const cookie = await t.signIn("T0SES", "U0MEMBER");
    t.clock.advance(20 * 86400_000);
    expect((await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } })).statusCode).toBe(200);
    t.clock.advance(20 * 86400_000);
    expect((await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } })).statusCode).toBe(200);
    t.clock.advance(31 * 86400_000);
    expect((await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } })).statusCode).toBe(401);
  });

  it("a role change applies to the next request of an existing session", async () => {
    const admin = await t.signIn("T0SES", "U0SESADMIN");
    const member = await t.signIn("T0SES", "U0MEMBER");
    expect(
      (await t.inject({ method: "GET", url: "/dashboard/api/members", headers: { cookie: member } })).statusCode,
    ).toBe(403);
    const put = await t.inject({
      method: "PUT",
      url: "/dashboard/api/members/U0MEMBER/role",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: { role: "admin" },
    });
    expect(put.json()).toEqual({ ok: true, user_id: "U0MEMBER", role: "admin" });
    expect(
      (await t.inject({ method: "GET", url: "/dashboard/api/members", headers: { cookie: member } })).statusCode,
    ).toBe(200);
  });

  it("a cross-site Origin on a mutation is refused; same-site is accepted", async () => {
    const admin = await t.signIn("T0SES", "U0SESADMIN");
    const req = (origin: string) =>
      t.inject({
        method: "PUT",
        url: "/dashboard/api/members/U0MEMBER/role",
        headers: { cookie: admin, "content-type": "application/json", origin },
        payload: { role: "member" },
      });
    const evil = await req("https://evil.example");
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toEqual({ error: "Cross-site request refused" });
    expect((await req("http://localhost:3000")).statusCode).toBe(200);
  });

  it("a mutation with a non-JSON body is refused", async () => {
    const admin = await t.signIn("T0SES", "U0SESADMIN");
    const res = await t.inject({
      method: "PUT",
      url: "/dashboard/api/members/U0MEMBER/role",
      headers: { cookie: admin, "content-type": "application/x-www-form-urlencoded" },
      payload: "role=admin",
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toHaveProperty("error");
  });

  it("past 30 failed sign-ins a minute from one address: a 429 page with Retry-After, even for a good link; others and the next minute are fine", async () => {
    t.clock.set("2026-07-01T10:00:20Z");
    const login = (ip: string, path = "/dashboard/login", token = issueLoginToken(t.deps, "T0SES", "U0MEMBER")) =>
      t.inject({ method: "GET", url: `${path}?t=${encodeURIComponent(token)}`, remoteAddress: ip });
    // Good sign-ins are never counted: an office behind one address all signing in at 09:00 is fine.
    for (let i = 0; i < LOGIN_PER_MINUTE + 10; i++) expect((await login("198.51.100.9")).statusCode).toBe(302);
    // /dashboard?t= signs in too, so its failures count in the same bucket.
    for (let i = 0; i < LOGIN_PER_MINUTE; i++) {
      expect((await login("198.51.100.9", i % 2 ? "/dashboard" : "/dashboard/login", "bogus")).statusCode).toBe(400);
    }
    for (const path of ["/dashboard/login", "/dashboard"]) {
      const over = await login("198.51.100.9", path);
      expect(over.statusCode).toBe(429);
      expect(over.headers["retry-after"]).toBe("40");
      expect(over.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(over.body).toContain("Too many sign-in attempts");
      expect(over.headers["set-cookie"]).toBeUndefined();
    }
    expect((await login("198.51.100.10")).statusCode).toBe(302);
    // IPv6 addresses count by their /64: a host cannot step around the limit by changing its interface id.
    for (let i = 0; i < LOGIN_PER_MINUTE; i++) {
      expect((await login(`2001:db8:7:8::${(i + 1).toString(16)}`, "/dashboard/login", "bogus")).statusCode).toBe(400);
    }
    expect((await login("2001:db8:7:8:ffff::1")).statusCode).toBe(429);
    expect((await login("2001:db8:7:9::1")).statusCode).toBe(302);
    t.clock.set("2026-07-01T10:01:00Z");
    expect((await login("198.51.100.9")).statusCode).toBe(302);
  });
});
