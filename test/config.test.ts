import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { configProblems } from "./support/config.ts";

const PROD = {
  NODE_ENV: "production",
  CHAT_CLIENT_ID: "123.456",
  CHAT_CLIENT_SECRET: "client-secret",
  CHAT_SIGNING_SECRET: "signing-secret",
  DATABASE_URL: "postgres://u:p@127.0.0.1:5432/upbeat",
  APP_URL: "https://upbeat.example.com/",
  SESSION_SECRET_KEY: "k".repeat(40),
};

const problems = configProblems;

describe("configuration", () => {
  it("production with every variable is valid and drops the trailing slash of APP_URL", () => {
    const c = loadConfig(PROD);
    expect(c.appUrl).toBe("https://upbeat.example.com");
    expect(c.port).toBe(3000);
    expect(c.logLevel).toBe("info");
  });

  it("production lists each missing variable by name", () => {
    const { CHAT_SIGNING_SECRET: _s, APP_URL: _a, ...rest } = PROD;
    const found = problems(rest);
    expect(found).toContain("CHAT_SIGNING_SECRET is required");
    expect(found).toContain("APP_URL is required");
  });

  it("rejects bad values by name", () => {
    const found = problems({
      ...PROD,
      LOG_LEVEL: "LOUD",
      PORT: "http",
      DATABASE_URL: "mysql://x",
      SESSION_SECRET_KEY: "short",
    });
    expect(found.join("\n")).toMatch(/LOG_LEVEL/);
    expect(found.join("\n")).toMatch(/PORT/);
    expect(found.join("\n")).toMatch(/DATABASE_URL/);
    expect(found.join("\n")).toMatch(/SESSION_SECRET_KEY/);
  });

  it("maps LOG_LEVEL DEBUG/INFO/WARNING", () => {
    expect(loadConfig({ ...PROD, LOG_LEVEL: "DEBUG" }).logLevel).toBe("debug");
    expect(loadConfig({ ...PROD, LOG_LEVEL: "WARNING" }).logLevel).toBe("warn");
  });

  it("outside production needs nothing: embedded database and secrets generated once and kept", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cfg-dev-"));
    const first = loadConfig({}, { dataDir });
    expect(first.databaseUrl).toBe(`pglite://${join(dataDir, "pglite")}`);
    expect(first.port).toBe(3000);
    expect(first.notices).toHaveLength(2);
    expect(first.notices.join(" ")).not.toContain(first.sessionSecretKey);
    expect(first.notices).toContain(
      "No Slack credentials set yet: open http://localhost:3000 to connect Upbeat to your Slack",
    );
    expect(existsSync(join(dataDir, "dev-secrets.json"))).toBe(true);
    const second = loadConfig({}, { dataDir });
    expect(second.sessionSecretKey).toBe(first.sessionSecretKey);
    expect(second.chatSigningSecret).toBe(first.chatSigningSecret);
    expect(JSON.parse(readFileSync(join(dataDir, "dev-secrets.json"), "utf8")).sessionSecretKey).toHaveLength(64);
  });

  it("the process exits 1 in production naming a missing CHAT_SIGNING_SECRET", () => {
    const { CHAT_SIGNING_SECRET: _s, ...env } = PROD;
    const res = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: { PATH: process.env.PATH, ...env },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("CHAT_SIGNING_SECRET");
  });
});

describe("secrets stay out of logs", () => {
  it("request URLs are logged without query strings or feed tokens", async () => {
    const { loggableUrl } = await import("../src/deps.ts");
    expect(loggableUrl("/dashboard/login?t=eyJhbGciOi.abc")).toBe("/dashboard/login?[query]");
    expect(loggableUrl("/oauth/callback?code=123&state=x")).toBe("/oauth/callback?[query]");
    expect(loggableUrl("/feed/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-ABCDE")).toBe("/feed/[token]");
    expect(loggableUrl("/healthz")).toBe("/healthz");
  });

  it("a signed-in request's log line carries neither the login token nor the cookie", async () => {
    const { Writable } = await import("node:stream");
    const { createLogger } = await import("../src/deps.ts");
    const { createTestApp } = await import("./support/app.ts");
    const { issueLoginToken } = await import("../src/features/session/index.ts");
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = createLogger({ logLevel: "info" }, sink);
    const t2 = await createTestApp({ log });
    try {
      await t2.installTeam("T0LOG");
      const token = issueLoginToken(t2.deps, "T0LOG", "U0LOGADMIN");
      const res = await t2.inject({ method: "GET", url: `/dashboard/login?t=${token}` });
      const cookie = String([res.headers["set-cookie"]].flat()[0]).split(";")[0]!;
      await t2.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie } });
      const all = lines.join("\n");
      expect(all).toContain("/dashboard/login?[query]");
      expect(all).not.toContain(token.slice(0, 20));
      expect(all).not.toContain(cookie.split("=")[1]!.slice(0, 20));
    } finally {
      await t2.close();
    }
  });

  it("TRUST_PROXY_HOPS is validated and defaults to trusting no proxy", () => {
    expect(loadConfig(PROD).trustProxyHops).toBe(0);
    expect(loadConfig({ ...PROD, TRUST_PROXY_HOPS: "1" }).trustProxyHops).toBe(1);
    expect(problems({ ...PROD, TRUST_PROXY_HOPS: "yes" }).join()).toMatch(/TRUST_PROXY_HOPS/);
  });

  it("WEBHOOK_ALLOW_PRIVATE is off unless set to true, and a value that is not a boolean is a problem", () => {
    expect(loadConfig(PROD).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ ...PROD, WEBHOOK_ALLOW_PRIVATE: "true" }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ ...PROD, WEBHOOK_ALLOW_PRIVATE: "0" }).webhookAllowPrivate).toBe(false);
    expect(problems({ ...PROD, WEBHOOK_ALLOW_PRIVATE: "yes please" }).join()).toMatch(
      /WEBHOOK_ALLOW_PRIVATE must be true or false/,
    );
  });

  it("METRICS_TOKEN is optional, and a short or spaced one is a problem", () => {
    expect(loadConfig(PROD).metricsToken).toBeUndefined();
    expect(loadConfig({ ...PROD, METRICS_TOKEN: "m".repeat(16) }).metricsToken).toBe("m".repeat(16));
    expect(problems({ ...PROD, METRICS_TOKEN: "short" }).join()).toMatch(/METRICS_TOKEN must be 16 to 256/);
    expect(problems({ ...PROD, METRICS_TOKEN: "with a space in it!" }).join()).toMatch(/METRICS_TOKEN/);
  });
});
