import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "../../dev/fake-slack/index.ts";
import { rows } from "../../src/db/client.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { hasChromium, OUTPUT, sharedBrowser } from "../support/browser.ts";

const TEAM = "T0BROWSE";
const INSTALLER = "U0BROWSEADMIN";

/** A free local port: Slack sends the browser back to APP_URL, so the app must listen where its APP_URL says. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 0;
}

/**
 * /install in a real browser, as the demo runs it (the fake Slack's authorize page approves at once): the cookie set
 * by /install comes back with Slack's redirect, and a callback link opened in another browser installs nothing.
 */
describe.runIf(hasChromium)("installing through OAuth in a real browser", () => {
  let fake: FakeSlack;
  let t: TestApp;
  let browser: Browser;
  let base = "";

  beforeAll(async () => {
    fake = await startFakeSlack();
    fake.onAuthorize(({ scope }) => ({
      team: { id: TEAM, name: "Browser Works" },
      botToken: "xoxb-browse-token",
      botUserId: "UT0BROWSEBOT",
      scope,
      authedUserId: INSTALLER,
    }));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      fake,
      clock: new ManualClock(new Date()),
      env: { APP_URL: base, CHAT_OAUTH_URL: `${fake.url.replace(/api\/$/, "")}oauth/v2/authorize` },
    });
    await t.app.server.listen({ port, host: "127.0.0.1" });
    browser = await sharedBrowser();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const installs = async () =>
    (
      await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from installations where team_id = ${TEAM}`)
    )[0]!.n;

  it("a callback link from another browser gets a page saying to start again; starting again there installs", async () => {
    // The attacker (any HTTP client) starts an install, approves it at Slack and keeps the callback link.
    const start = await fetch(`${base}/install`, { redirect: "manual" });
    const approved = await fetch(String(start.headers.get("location")), { redirect: "manual" });
    const link = String(approved.headers.get("location"));
    expect(link).toMatch(/\/oauth\/callback\?code=.+&state=/);

    // The victim opens it: nothing installed, nobody signed in, a page with the way to start again.
    const victim = await browser.newContext();
    const page = await victim.newPage();
    const res = await page.goto(link);
    expect(res?.status()).toBe(400);
    expect(await page.locator("body").textContent()).toContain("started in another browser");
    expect(await installs()).toBe(0);
    expect((await victim.cookies()).map((c) => c.name)).not.toContain("svc_session");
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "install-other-browser.png"), fullPage: true });

    // Starting again in this browser goes through Slack and back with this browser's cookie: installed, signed in.
    await page.getByRole("link", { name: "Start the install again" }).click();
    await page.waitForURL(`${base}/dashboard`);
    expect(await installs()).toBe(1);
    expect((await victim.cookies()).map((c) => c.name)).toContain("svc_session");
    const me = await page.evaluate(async () => (await fetch("/dashboard/api/me")).json());
    expect(me).toMatchObject({ team_id: TEAM, user_id: INSTALLER, role: "admin" });
    // The one-time cookie is gone once used.
    expect((await victim.cookies()).map((c) => c.name)).not.toContain("upbeat_install");
    expect(fake.callsTo("oauth.v2.access").filter((c) => c.ok)).toHaveLength(1);
    await victim.close();
  });
});
