import { describe, expect, it } from "vitest";
import { createTestApp, useTestApp } from "../../../test/support/app.ts";
import { prefersHtml } from "../../http/accepts.ts";
import { PACKAGE_VERSION } from "../../http/server.ts";

describe("system endpoints and HTTP basics", async () => {
  const t = await useTestApp();
  await t.installTeam("T0SYS");
  const cookie = await t.signIn("T0SYS", "U0SYSADMIN");

  it("GET / names the service and its version", async () => {
    const res = await t.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: "upbeat", version: PACKAGE_VERSION, status: "ok" });
    expect(PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("GET /healthz reports the database connected", async () => {
    const res = await t.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", db: "connected", socket: "off" });
  });

  it("malformed JSON is a 400 with a JSON error", async () => {
    const res = await t.inject({
      method: "PUT",
      url: "/dashboard/api/members/U0SYSADMIN/role",
      headers: { cookie, "content-type": "application/json" },
      payload: '{"role": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "Malformed JSON body" });
  });

  it("a 2 MB body is a 413 with a JSON error", async () => {
    const res = await t.inject({
      method: "POST",
      url: "/dashboard/api/members/invite",
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify({ user_id: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: "Request body is larger than 1 MB" });
  });

  it("an unknown API route is a JSON 404", async () => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/no-such-thing", headers: { cookie } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty("error");
  });

  it("responses carry a request id, and a safe incoming one is kept", async () => {
    const res = await t.inject({ method: "GET", url: "/", headers: { "x-request-id": "req-abc-123" } });
    expect(res.headers["x-request-id"]).toBe("req-abc-123");
    const unsafe = await t.inject({ method: "GET", url: "/", headers: { "x-request-id": "bad id\nwith newline" } });
    expect(unsafe.headers["x-request-id"]).not.toContain("bad id");
  });
});

describe("health when the database is gone", () => {
  it("GET /healthz answers 503 when the database does not answer", async () => {
    const t = await createTestApp();
    try {
      await t.database.close();
      const res = await t.inject({ method: "GET", url: "/healthz" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ db: "unreachable" });
    } finally {
      await t.close().catch(() => {});
    }
  });
});

describe("GET /: JSON for API clients, a page for browsers", async () => {
  const t = await useTestApp();
  const get = (accept?: string) =>
    t.inject({ method: "GET", url: "/", headers: accept === undefined ? {} : { accept } });

  it.each([
    ["no Accept header", undefined],
    ["curl's */*", "*/*"],
    ["application/json", "application/json"],
    ["JSON ranked above HTML", "text/html;q=0.5, application/json"],
  ])("%s: the JSON object", async (_label, accept) => {
    const res = await get(accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers.vary).toMatch(/accept/i);
    expect(res.json()).toEqual({ name: "upbeat", version: PACKAGE_VERSION, status: "ok" });
  });

  it("a browser's Accept gets an HTML page with the version and the links", async () => {
    const res = await get("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers.vary).toMatch(/accept/i);
    expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(res.body).toContain(`<code>${PACKAGE_VERSION}</code>`);
    for (const href of ["/install", "/dashboard", "/openapi.json", "/chat/manifest", "/healthz"]) {
      expect(res.body).toContain(`href="${href}"`);
    }
    expect(res.body).not.toMatch(/<script/i);
  });
});

describe("GET / in Socket Mode", () => {
  it("links the Socket Mode manifest, the app this instance is (not the HTTP one with request URLs)", async () => {
    const t = await createTestApp({ transport: "socket" });
    try {
      const res = await t.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('href="/chat/manifest?mode=socket"');
      expect(res.body).not.toContain('href="/chat/manifest"');
    } finally {
      await t.close();
    }
  });
});

describe("prefersHtml", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["*/*", false],
    ["text/*", false],
    ["application/json", false],
    ["text/html", true],
    ["TEXT/HTML", true],
    ["application/xhtml+xml", true],
    ["text/html;q=0", false],
    ["application/json, text/html", true],
    ["application/json;q=1, text/html;q=0.9", false],
    ["text/html;q=0.9, application/json;q=0.9", true],
    ["text/html;q=abc", false],
  ])("%j → %s", (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});

describe("GET /favicon.ico", async () => {
  const t = await useTestApp();
  it("answers the icon, so pages without an icon link log no 404", async () => {
    const res = await t.inject({ method: "GET", url: "/favicon.ico" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(res.body).toMatch(/^<svg /);
  });
});
