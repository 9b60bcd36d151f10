import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { APP_URL, useTestApp } from "../../../test/support/app.ts";
import { PACKAGE_VERSION } from "../../http/server.ts";
import { escapeHtml } from "../../lib/html.ts";
import { buildManifest } from "./manifest.ts";
import { createAppUrl, setupPage } from "./setup.page.ts";
import { isPublicHttpsUrl, suggestedTransport } from "./transport.ts";

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The manifest the page shows, unescaped. */
function shownManifest(html: string): unknown {
  const m = /<pre id="manifest">([\s\S]*?)<\/pre>/.exec(html);
  if (!m) throw new Error("no manifest on the page");
  const text = m[1]!.replace(/&(quot|#39|lt|gt|amp);/g, (_, e: string) =>
    e === "quot" ? '"' : e === "#39" ? "'" : e === "lt" ? "<" : e === "gt" ? ">" : "&",
  );
  return JSON.parse(text);
}

describe("which mode an instance is offered", () => {
  it.each([
    ["https://standups.example.com", true],
    ["https://standups.example.com:8443/upbeat", true],
    ["https://8.8.8.8", true],
    ["https://[2606:4700::1111]", true],
    ["http://standups.example.com", false],
    ["https://localhost:3000", false],
    ["https://upbeat.localhost", false],
    ["https://standups", false],
    ["https://standups.corp", false],
    ["https://nas.local", false],
    ["https://upbeat.internal", false],
    ["https://router.home.arpa", false],
    ["https://10.0.0.5", false],
    ["https://192.168.1.20:3000", false],
    ["https://172.16.0.1", false],
    ["https://127.0.0.1", false],
    ["https://100.64.0.1", false],
    ["https://[::1]", false],
    ["https://[fd00::1]", false],
    ["https://[::ffff:10.0.0.1]", false],
    ["not a url", false],
  ])("%s is public https: %s", (url, expected) => {
    expect(isPublicHttpsUrl(url)).toBe(expected);
  });

  it("Socket Mode for an address Slack cannot reach, or once an app-level token is set", () => {
    expect(suggestedTransport({ appUrl: "http://localhost:3000", chatAppToken: undefined })).toBe("socket");
    expect(suggestedTransport({ appUrl: "https://standups.example.com", chatAppToken: undefined })).toBe("http");
    expect(suggestedTransport({ appUrl: "https://standups.example.com", chatAppToken: "xapp-1-A-1-x" })).toBe("socket");
  });
});

describe("the setup page", () => {
  it("for a public https instance: the HTTP manifest and the HTTP-mode variables, in order", () => {
    const url = "https://standups.example.com";
    const html = setupPage({ appUrl: url, chatAppToken: undefined });
    expect(html).toContain("<strong>HTTP mode.</strong>");
    expect(shownManifest(html)).toEqual(buildManifest(url, "http"));
    expect(html).toContain(`href="${escapeHtml(createAppUrl(buildManifest(url, "http")))}"`);
    const order = ["CHAT_SIGNING_SECRET", "CHAT_BOT_TOKEN", "CHAT_CLIENT_ID", "CHAT_CLIENT_SECRET", "npm start"];
    const at = order.map((name) => html.indexOf(name));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(html).toContain(`${url}/install`);
    expect(html).not.toContain("CHAT_APP_TOKEN");
  });

  it("with only CHAT_APP_TOKEN set: Socket Mode, saying why, and the token itself nowhere", () => {
    const token = "xapp-1-A0TESTAPP-1234567890-abcdefabcdefabcdef";
    const html = setupPage({ appUrl: "https://standups.example.com", chatAppToken: token });
    expect(html).toContain("an app-level token (<code>CHAT_APP_TOKEN</code>) is already set");
    expect(shownManifest(html)).toEqual(buildManifest("https://standups.example.com", "socket"));
    expect(html).not.toContain(token);
    expect(html).not.toContain("xapp-1");
  });

  it("escapes every value it shows", () => {
    const url = `https://standups.example.com/<b>"it's"`;
    const html = setupPage({ appUrl: url, chatAppToken: undefined });
    expect(html).not.toContain("<b>");
    expect(html).toContain("/&lt;b&gt;&quot;it&#39;s&quot;");
    expect(shownManifest(html)).toEqual(buildManifest(url, "http"));
  });
});

describe("GET / on a fresh instance (no Slack credentials)", async () => {
  const t = await useTestApp({ env: { CHAT_CLIENT_ID: "", CHAT_CLIENT_SECRET: "" } });

  it("a browser gets the setup page, under a CSP that lets only its own script run", async () => {
    const res = await t.inject({ method: "GET", url: "/", headers: { accept: BROWSER } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.body).toContain("<h1>Connect Upbeat to your Slack</h1>");
    expect(shownManifest(res.body)).toEqual(buildManifest(APP_URL, "socket"));
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    const script = /<script>([\s\S]*?)<\/script>/.exec(res.body)![1]!;
    expect(csp).toContain(`script-src 'sha256-${createHash("sha256").update(script).digest("base64")}'`);
  });

  it("API clients still get the JSON object", async () => {
    const res = await t.inject({ method: "GET", url: "/" });
    expect(res.json()).toEqual({ name: "upbeat", version: PACKAGE_VERSION, status: "ok" });
  });

  it("/install sends the browser to the setup page instead of Slack's OAuth with a placeholder client id", async () => {
    const res = await t.inject({ method: "GET", url: "/install" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    expect(t.fake.callsTo("oauth.v2.access")).toEqual([]);
  });
});
