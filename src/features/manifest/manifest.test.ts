import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APP_URL, useTestApp } from "../../../test/support/app.ts";
import { type Json, slackDeliveryProblems, slackSchemaProblems } from "../../../test/support/slack-manifest-schema.ts";
import { BOT_SCOPES as INSTALL_SCOPES } from "../install/index.ts";
import { buildManifest } from "./manifest.ts";
import { BOT_EVENTS, BOT_SCOPES } from "./slack-app.ts";

describe("the constraints from Slack's manifest schema", () => {
  it("catch manifests Slack would refuse", () => {
    const bad = structuredClone(buildManifest("https://upbeat.example.com")) as unknown as Json & {
      display_information: Json;
      features: { slash_commands: Json[]; app_home: Json };
      settings: Json & { interactivity: Json };
      oauth_config: { scopes: { bot: string[] } };
    };
    bad.display_information.name = "U".repeat(36);
    bad.display_information.long_description = "too short";
    bad.display_information.background_color = "blue";
    bad.features.slash_commands[0]!.command = "upbeat";
    bad.features.app_home.home_tab_enabled = "yes";
    bad.settings.interactivity = { request_url: "ftp://x" };
    bad.settings.token_rotation = false;
    bad.oauth_config.scopes.bot.push("chat:write:bot");
    expect(slackSchemaProblems(bad)).toEqual([
      "display_information.name must be 1-35 characters (36)",
      "display_information.background_color must match /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/",
      "display_information.long_description must be 175-4000 characters (9)",
      "features.app_home.home_tab_enabled must be a boolean",
      "features.slash_commands[0].command must match /^\\//",
      "oauth_config.scopes.bot: unknown scope chat:write:bot",
      "settings.token_rotation is not allowed",
      "settings.interactivity.is_enabled is required",
      "settings.interactivity.request_url must match /^https?:\\/\\//",
    ]);
  });

  it("catch a request URL in Socket Mode, and a missing one without it", () => {
    const socket = structuredClone(buildManifest("http://localhost:3000", "socket")) as unknown as Json & {
      settings: Json & { interactivity: Json };
    };
    socket.settings.interactivity.request_url = "http://localhost:3000/chat/interactions";
    expect(slackDeliveryProblems(socket)).toEqual(["settings.interactivity.request_url is not used in Socket Mode"]);
    socket.settings.socket_mode_enabled = false;
    expect(slackDeliveryProblems(socket)).toEqual([
      "settings.event_subscriptions.request_url is required without Socket Mode",
      "features.slash_commands[0].url is required without Socket Mode",
    ]);
  });
});

/** The manifest without where Slack delivers: what must not differ between the two modes. */
function withoutDelivery(m: Json): Json {
  const c = structuredClone(m) as Json & {
    features: { slash_commands: Json[] };
    oauth_config: Json;
    settings: Json & { event_subscriptions: Json; interactivity: Json };
  };
  for (const cmd of c.features.slash_commands) delete cmd.url;
  delete c.oauth_config.redirect_urls;
  delete c.settings.event_subscriptions.request_url;
  delete c.settings.interactivity.request_url;
  delete c.settings.socket_mode_enabled;
  return c;
}

describe("the manifest in both modes", () => {
  const urls = [
    "http://localhost:3000",
    "https://standups.example.com",
    "http://10.1.2.3:8080",
    "https://upbeat.corp",
    "https://[2001:db8::1]",
  ];

  it.each(urls)("%s: both are valid for Slack and deliver where the mode says", (url) => {
    for (const transport of ["http", "socket"] as const) {
      const m = buildManifest(url, transport) as unknown as Json;
      expect(slackSchemaProblems(m), transport).toEqual([]);
      expect(slackDeliveryProblems(m), transport).toEqual([]);
    }
    expect(withoutDelivery(buildManifest(url, "socket") as unknown as Json)).toEqual(
      withoutDelivery(buildManifest(url, "http") as unknown as Json),
    );
  });

  it("Socket Mode: no request URL at all, the same command, events and scopes", () => {
    const m = buildManifest("http://localhost:3000", "socket");
    expect(m.settings).toEqual({
      event_subscriptions: { bot_events: [...BOT_EVENTS] },
      interactivity: { is_enabled: true },
      org_deploy_enabled: false,
      socket_mode_enabled: true,
      token_rotation_enabled: false,
    });
    expect(m.features.slash_commands).toEqual([
      {
        command: "/upbeat",
        description: "Your standup profile and what Upbeat can do",
        usage_hint: "[answer | away | back | kudos | profile | skip | help]",
      },
    ]);
    expect(m.oauth_config).toEqual({ scopes: { bot: [...BOT_SCOPES] } });
    expect(JSON.stringify(m)).not.toContain("localhost");
  });

  it("Socket Mode keeps the OAuth redirect only on an https APP_URL, where /install can work", () => {
    expect(buildManifest("https://standups.example.com", "socket").oauth_config.redirect_urls).toEqual([
      "https://standups.example.com/oauth/callback",
    ]);
    expect(buildManifest("http://standups.intranet:3000", "socket").oauth_config).not.toHaveProperty("redirect_urls");
  });

  it("HTTP mode is the default, as it was", () => {
    expect(buildManifest("https://standups.example.com")).toEqual(
      buildManifest("https://standups.example.com", "http"),
    );
    expect(buildManifest("https://standups.example.com").settings.socket_mode_enabled).toBe(false);
  });
});

describe("GET /chat/manifest", async () => {
  const t = await useTestApp();

  it("answers the manifest for APP_URL without a session, valid for Slack's schema", async () => {
    const res = await t.inject({ method: "GET", url: "/chat/manifest" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const m = res.json();
    expect(slackSchemaProblems(m)).toEqual([]);
    expect(m).toEqual(buildManifest(APP_URL));
    expect(m._metadata).toEqual({ major_version: 1, minor_version: 1 });
    expect(m.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
    expect(m.features.bot_user.always_online).toBe(true);
    expect(m.features.slash_commands).toEqual([
      expect.objectContaining({ command: "/upbeat", url: `${APP_URL}/chat/commands` }),
    ]);
    expect(m.oauth_config.redirect_urls).toEqual([`${APP_URL}/oauth/callback`]);
    expect(m.settings.event_subscriptions.request_url).toBe(`${APP_URL}/chat/events`);
    expect(m.settings.interactivity).toEqual({ is_enabled: true, request_url: `${APP_URL}/chat/interactions` });
    expect(m.settings).toMatchObject({
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    });
  });

  it("declares the one list of scopes and events, the scopes /install asks for", async () => {
    const m = (await t.inject({ method: "GET", url: "/chat/manifest" })).json();
    expect(m.oauth_config.scopes.bot).toEqual([...BOT_SCOPES]);
    expect(m.oauth_config.scopes.bot).toEqual([...INSTALL_SCOPES]);
    expect(m.settings.event_subscriptions.bot_events).toEqual([...BOT_EVENTS]);
    // Private-channel kudos stay opt-in: the event is not subscribed.
    expect(m.settings.event_subscriptions.bot_events).not.toContain("message.groups");
  });

  it("holds no secret", async () => {
    const body = (await t.inject({ method: "GET", url: "/chat/manifest" })).body;
    const { chatClientId, chatClientSecret, chatSigningSecret, sessionSecretKey } = t.deps.config;
    for (const secret of [chatClientId, chatClientSecret, chatSigningSecret, sessionSecretKey]) {
      expect(body).not.toContain(secret);
    }
  });

  it("?mode=socket answers the Socket Mode manifest, ?mode=http the default one", async () => {
    const socket = await t.inject({ method: "GET", url: "/chat/manifest?mode=socket" });
    expect(socket.statusCode).toBe(200);
    expect(socket.json()).toEqual(buildManifest(APP_URL, "socket"));
    expect(slackSchemaProblems(socket.json())).toEqual([]);
    const http = await t.inject({ method: "GET", url: "/chat/manifest?mode=http" });
    expect(http.json()).toEqual((await t.inject({ method: "GET", url: "/chat/manifest" })).json());
  });

  it("an unknown mode is a 400 naming the parameter", async () => {
    const res = await t.inject({ method: "GET", url: "/chat/manifest?mode=websocket" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/mode/);
  });

  it("is in /openapi.json with its response schema", async () => {
    const doc = (await t.inject({ method: "GET", url: "/openapi.json" })).json();
    const op = doc.paths["/chat/manifest"]?.get;
    expect(op?.responses?.["200"]?.content?.["application/json"]?.schema?.properties).toHaveProperty("oauth_config");
    expect(op?.security ?? []).toEqual([]);
    expect(op?.parameters).toEqual([expect.objectContaining({ name: "mode", in: "query" })]);
  });
});

describe("npm run manifest", () => {
  const cli = join(import.meta.dirname, "manifest.cli.ts");
  const tsx = join(import.meta.dirname, "../../../node_modules/.bin/tsx");
  const run = (env: Record<string, string>, args: string[] = []) => {
    const cwd = mkdtempSync(join(tmpdir(), "manifest-cli-"));
    try {
      const out = spawnSync(tsx, [cli, ...args], {
        cwd,
        env: { PATH: process.env.PATH ?? "", ...env },
        encoding: "utf8",
      });
      return { ...out, wroteData: existsSync(join(cwd, "data")) };
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  };

  it("prints the same manifest for APP_URL in production with no Slack or session secret set", () => {
    const out = run({ NODE_ENV: "production", APP_URL: "https://standups.example.com/" });
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    const m = JSON.parse(out.stdout);
    expect(m).toEqual(buildManifest("https://standups.example.com"));
    expect(slackSchemaProblems(m)).toEqual([]);
    expect(m.settings.event_subscriptions.request_url).toBe("https://standups.example.com/chat/events");
    expect(out.wroteData).toBe(false);
  });

  it("uses the server's default outside production, and refuses what the server refuses", () => {
    const dev = run({ PORT: "4100" });
    expect(dev.status).toBe(0);
    expect(JSON.parse(dev.stdout).oauth_config.redirect_urls).toEqual(["http://localhost:4100/oauth/callback"]);
    expect(dev.wroteData).toBe(false);
    // Slack cannot reach localhost: the HTTP manifest is printed as asked, with a pointer to the Socket Mode one.
    expect(dev.stderr).toContain("you probably want npm run manifest -- --socket-mode");

    const missing = run({ NODE_ENV: "production" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("APP_URL is required");
    expect(missing.stdout).toBe("");
    const bad = run({ APP_URL: "ftp://example.com" });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("APP_URL must be an http(s) URL");
  });

  it("--socket-mode prints the Socket Mode manifest, as GET /chat/manifest?mode=socket answers it", () => {
    const out = run({ NODE_ENV: "production", APP_URL: "http://standups.intranet:3000" }, ["--socket-mode"]);
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    const m = JSON.parse(out.stdout);
    expect(m).toEqual(buildManifest("http://standups.intranet:3000", "socket"));
    expect(slackSchemaProblems(m)).toEqual([]);
    expect(slackDeliveryProblems(m)).toEqual([]);
    expect(out.wroteData).toBe(false);
  });

  it("refuses an argument it does not know, saying how to call it", () => {
    const out = run({}, ["--socket"]);
    expect(out.status).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain("Unknown argument --socket");
    expect(out.stderr).toContain("npm run manifest [-- --socket-mode]");
  });
});
