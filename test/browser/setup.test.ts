import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { buildManifest } from "../../src/features/manifest/index.ts";
import { APP_URL } from "../support/app.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { slackDeliveryProblems, slackSchemaProblems } from "../support/slack-manifest-schema.ts";

/** What `npm run manifest -- --socket-mode` prints for the test app's APP_URL. */
function cliSocketManifest(): unknown {
  const out = spawnSync("npm", ["run", "--silent", "manifest", "--", "--socket-mode"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", APP_URL },
    encoding: "utf8",
  });
  if (out.status !== 0) throw new Error(`npm run manifest failed: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

/** Slack tokens and long random-looking runs: what a secret on the page would look like. */
const SECRET_LOOKING = /xox[abeprs]-[\w-]{4,}|xapp-[\w-]{4,}|\b[A-Fa-f0-9]{32,}\b|\b[A-Za-z0-9+/_-]{40,}={0,2}/;

/**
 * Every text node and attribute value on the page, scripts and styles aside, and the create-app link's href (it
 * carries the manifest, checked on its own). A string, as the tests' TypeScript has no DOM types.
 */
const VISIBLE_STRINGS = `(() => {
  const out = [];
  for (const el of document.querySelectorAll("*")) {
    if (el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
    for (const node of el.childNodes) {
      if (node.nodeType === Node.TEXT_NODE && node.textContent.trim()) out.push(node.textContent);
    }
    for (const attr of el.attributes) {
      if (!(el.id === "create-app" && attr.name === "href")) out.push(attr.value);
    }
  }
  return out;
})()`;

async function screenshot(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: join(OUTPUT, `${name}-${width}.png`), fullPage: true });
  // Nothing wider than the window: the manifest scrolls inside its own box.
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
  expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0);
}

describe.runIf(hasChromium)("a fresh instance without Slack credentials, in a real browser", () => {
  const web = useBrowser({
    // No OAuth client, no bot token: nothing connects this instance to Slack yet.
    app: { env: { CHAT_CLIENT_ID: "", CHAT_CLIENT_SECRET: "" } },
    watch: { notFound: true, console: true, otherHosts: true },
  });

  it("shows the setup page at /, with the Socket Mode manifest the CLI prints and Slack accepts", async () => {
    expect(web.t.deps.config.slackConfigured).toBe(false);
    const page = await web.newPage();
    const res = await page.goto(`${web.base}/`);
    expect(res?.status()).toBe(200);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Connect Upbeat to your Slack");
    expect(await page.locator(".mode").textContent()).toContain("Socket Mode");

    const shown = JSON.parse((await page.locator("#manifest").textContent()) ?? "");
    expect(shown).toEqual(cliSocketManifest());
    expect(shown).toEqual(buildManifest(APP_URL, "socket"));
    expect(slackSchemaProblems(shown)).toEqual([]);
    expect(slackDeliveryProblems(shown)).toEqual([]);

    const button = page.getByRole("link", { name: "Create the app in Slack" });
    const href = new URL((await button.getAttribute("href")) ?? "");
    expect(`${href.origin}${href.pathname}`).toBe("https://api.slack.com/apps");
    expect(href.searchParams.get("new_app")).toBe("1");
    expect(JSON.parse(href.searchParams.get("manifest_json") ?? "")).toEqual(shown);
    expect(await button.getAttribute("target")).toBe("_blank");

    for (const width of [1280, 390]) await screenshot(page, "setup", width);
    expect(web.problems).toEqual([]);
  });

  it("names the variables to set next, in order, and the production ones", async () => {
    const page = await web.newPage();
    await page.goto(`${web.base}/`);
    const steps = await page.locator("ol.steps > li h2").allTextContents();
    expect(steps).toEqual([
      "Create the Slack app",
      "Create an app-level token",
      "Install the app in your workspace",
      "Start Upbeat again with both tokens",
    ]);
    const items = (await page.locator("ol.steps > li").allTextContents()).map((s) => s.replace(/\s+/g, " "));
    expect(items[1]).toContain("App-Level Tokens");
    expect(items[1]).toContain("connections:write");
    expect(items[1]).toContain("CHAT_APP_TOKEN");
    expect(items[2]).toContain("Install to Workspace");
    expect(items[2]).toContain("Bot User OAuth Token");
    expect(items[2]).toContain("CHAT_BOT_TOKEN");
    expect(items[3]).toContain("CHAT_APP_TOKEN=xapp-… CHAT_BOT_TOKEN=xoxb-… npm start");
    expect(items[3]).toContain("/upbeat");
    const note = (await page.locator(".note").textContent()) ?? "";
    expect(note).toContain("SESSION_SECRET_KEY");
    expect(note).toContain("DATABASE_URL");
    // Production refuses to start without it too.
    expect(note).toMatch(/APP_URL \(the address your team\s+opens\)/);
  });

  it("asks for nothing and shows nothing secret", async () => {
    const page = await web.newPage();
    await page.goto(`${web.base}/`);
    expect(await page.locator("form, input, textarea, select, [contenteditable]").count()).toBe(0);
    const { chatSigningSecret, sessionSecretKey, chatClientSecret } = web.t.deps.config;
    const html = await page.content();
    for (const secret of [chatSigningSecret, sessionSecretKey, chatClientSecret]) expect(html).not.toContain(secret);
    const strings = await page.evaluate<string[]>(VISIBLE_STRINGS);
    expect(strings.length).toBeGreaterThan(20);
    expect(strings.filter((s) => SECRET_LOOKING.test(s))).toEqual([]);
    // The pattern would catch a token: it is not vacuous.
    expect(SECRET_LOOKING.test("xoxb-1234-5678-abcdef")).toBe(true);
    expect(SECRET_LOOKING.test(sessionSecretKey)).toBe(true);
  });

  it("copies the manifest with its button (the page's script runs under its CSP)", async () => {
    await web.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: web.base });
    const page = await web.newPage();
    await page.goto(`${web.base}/`);
    const copy = page.getByRole("button", { name: "Copy the manifest" });
    await expect.poll(() => copy.isVisible()).toBe(true);
    await copy.click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Copied.");
    const copied = await page.evaluate<string>("navigator.clipboard.readText()");
    expect(JSON.parse(copied)).toEqual(buildManifest(APP_URL, "socket"));
    expect(web.problems).toEqual([]);
  });

  it("keeps answering JSON to API clients", async () => {
    const res = await web.t.inject({ method: "GET", url: "/", headers: { accept: "application/json" } });
    expect(res.json()).toMatchObject({ name: "upbeat", status: "ok" });
  });
});

describe.runIf(hasChromium)("a configured instance, in a real browser", () => {
  const web = useBrowser({ watch: { notFound: true, console: true } });

  it("shows the usual front door at /, not the setup page", async () => {
    expect(web.t.deps.config.slackConfigured).toBe(true);
    const page = await web.newPage();
    await page.goto(`${web.base}/`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Upbeat");
    expect(await page.getByRole("link", { name: "Add to Slack", exact: true }).count()).toBe(1);
    expect(await page.locator("#manifest").count()).toBe(0);
    expect(await page.getByText("Connect Upbeat to your Slack").count()).toBe(0);
    expect(web.problems).toEqual([]);
  });
});
