import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { configProblems } from "./support/config.ts";

/** Production with the least each way of connecting to Slack needs. */
const BASE = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://u:p@127.0.0.1:5432/upbeat",
  SESSION_SECRET_KEY: "k".repeat(40),
};
const OAUTH = { CHAT_CLIENT_ID: "123.456", CHAT_CLIENT_SECRET: "client-secret", CHAT_SIGNING_SECRET: "signing" };
const APP_TOKEN = "xapp-1-A0-1-abc";
const BOT_TOKEN = "xoxb-1-2-abc";

const problems = configProblems;

describe("configuration: ways of connecting to Slack", () => {
  it("one workspace over Socket Mode needs only the two tokens, and any APP_URL the team can open", () => {
    const c = loadConfig({
      ...BASE,
      APP_URL: "http://localhost:3000",
      CHAT_APP_TOKEN: APP_TOKEN,
      CHAT_BOT_TOKEN: BOT_TOKEN,
    });
    expect(c.chatAppToken).toBe(APP_TOKEN);
    expect(c.chatBotToken).toBe(BOT_TOKEN);
    expect(c.slackConfigured).toBe(true);
    expect(c.appUrl).toBe("http://localhost:3000");
    // No signing secret given: one no one knows, so the HTTP endpoints refuse everything (and no dev-secret notice).
    expect(c.chatSigningSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(c.notices.join(" ")).not.toMatch(/Development mode/);
  });

  it("production refuses a half-configured mode, naming what is missing", () => {
    expect(problems({ ...BASE, APP_URL: "https://u.example.com", CHAT_APP_TOKEN: APP_TOKEN })).toContain(
      "Slack credentials are required: CHAT_BOT_TOKEN (one workspace) or CHAT_CLIENT_ID and CHAT_CLIENT_SECRET (OAuth)",
    );
    expect(problems({ ...BASE, ...OAUTH, APP_URL: "https://u.example.com", CHAT_CLIENT_SECRET: "" })).toContain(
      "CHAT_CLIENT_SECRET is required with CHAT_CLIENT_ID",
    );
    // A bot token over HTTP still needs Slack to reach APP_URL.
    const http = problems({
      ...BASE,
      CHAT_SIGNING_SECRET: "s",
      APP_URL: "http://intranet:3000",
      CHAT_BOT_TOKEN: BOT_TOKEN,
    });
    expect(http.join("\n")).toMatch(/APP_URL must be an https:\/\/ address.*CHAT_APP_TOKEN missing/);
    // Socket Mode with OAuth: the redirect still needs https.
    const oauth = problems({ ...BASE, ...OAUTH, APP_URL: "http://localhost:3000", CHAT_APP_TOKEN: APP_TOKEN });
    expect(oauth.join("\n")).toMatch(/APP_URL must be an https:\/\/ address.*CHAT_BOT_TOKEN missing/);
    // HTTP mode without a signing secret.
    expect(problems({ ...BASE, APP_URL: "https://u.example.com", CHAT_BOT_TOKEN: BOT_TOKEN })).toContain(
      "CHAT_SIGNING_SECRET is required",
    );
  });

  it("names a token of the wrong kind", () => {
    const found = problems({
      ...BASE,
      APP_URL: "http://localhost:3000",
      CHAT_APP_TOKEN: "xoxb-not-an-app-token",
      CHAT_BOT_TOKEN: "xoxp-user-token",
    }).join("\n");
    expect(found).toMatch(/CHAT_APP_TOKEN must be an app-level token/);
    expect(found).toMatch(/CHAT_BOT_TOKEN must be a bot token/);
  });

  it("outside production nothing is required, and the setup page is due until credentials are given", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cfg-dev-"));
    expect(loadConfig({}, { dataDir }).slackConfigured).toBe(false);
    expect(loadConfig({ CHAT_BOT_TOKEN: BOT_TOKEN }, { dataDir }).slackConfigured).toBe(true);
    expect(loadConfig({ CHAT_CLIENT_ID: "1.2", CHAT_CLIENT_SECRET: "s" }, { dataDir }).slackConfigured).toBe(true);
    expect(loadConfig({ CHAT_CLIENT_ID: "1.2" }, { dataDir }).slackConfigured).toBe(false);
  });

  it("BACKUP_KEEP: 7 by default, 0 turns snapshots off, nonsense is named", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cfg-dev-"));
    expect(loadConfig({}, { dataDir }).backupKeep).toBe(7);
    expect(loadConfig({ BACKUP_KEEP: "0" }, { dataDir }).backupKeep).toBe(0);
    expect(problems({ BACKUP_KEEP: "-1" }).join("\n")).toMatch(/BACKUP_KEEP must be an integer 0-365/);
  });
});
