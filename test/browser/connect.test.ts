import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { oauthGrants } from "../../src/db/schema.ts";
import { issueLoginToken } from "../../src/features/session/index.ts";
import { APP_URL } from "../support/app.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { NARROW, WIDE } from "../support/nav-entries.ts";
import { seedOAuthClient, seedOAuthRequest } from "../support/oauth-grants.ts";
import { axeFindings, sidewaysScroll } from "../support/page-checks.ts";

/**
 * The consent page an AI client's authorization sends people to. It runs on the consent API of the OAuth server
 * (GET /dashboard/api/oauth/requests/<id>, POST …/approve and …/deny); the requests are seeded as
 * GET /oauth/authorize leaves them, and a tiny page on 127.0.0.1 stands in for the client's redirect URI.
 */

const TEAM = "T0CONNECT";
const ADMIN = "U0CONADMIN";
const MAYA = "U0CONMAYA";
const CLIENT = "mcpc_connectTest000000";
/** A client known by its metadata document: its https URL is its id, and that host vouches for it. */
const DOC_CLIENT = "https://docs-assistant.example/oauth/client.json";
const SHOTS = join(OUTPUT, "connect");

let receiver: Server | undefined;
let callback = "";
let requests = 0;

async function startReceiver(): Promise<void> {
  receiver = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>Assistant</title><h1>Back in the assistant</h1>");
  });
  await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
  callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/oauth/callback`;
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

describe.runIf(hasChromium)("the consent page for an AI client", () => {
  const web = useBrowser({
    before: startReceiver,
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Connect Rockets", installer: ADMIN });
      await t.addMember(TEAM, MAYA, { realName: "Maya Okafor" });
      await seedOAuthClient(
        t.deps.db,
        { clientId: CLIENT, name: "Test Assistant", redirectUris: [callback], clientUri: "https://assistant.example" },
        t.clock.now(),
      );
      await seedOAuthClient(
        t.deps.db,
        { clientId: DOC_CLIENT, name: "Doc Assistant", redirectUris: [callback] },
        t.clock.now(),
      );
    },
    cleanup: async () => {
      await new Promise((resolve) => receiver?.close(resolve));
    },
    watch: { console: (text) => !text.includes("401") && !text.includes("404") && !text.includes("409") },
  });

  /** A fresh request waiting for consent; returns its id (only its hash is stored). */
  async function newRequest(write = true, clientId = CLIENT) {
    requests += 1;
    const id = `req_${requests}_ZxQ8s1aVbT3nKp0yRw2mLc9dFh7`;
    await seedOAuthRequest(
      web.t.deps.db,
      {
        id,
        clientId,
        redirectUri: callback,
        state: `state-${requests}`,
        scopes: write ? ["standups:read", "standups:write"] : ["standups:read"],
        resource: `${APP_URL}/mcp`,
      },
      web.t.clock.now(),
    );
    return id;
  }

  it("signed out: the sign-in steps and a button to come back; only after that click does sign-in return here", async () => {
    mkdirSync(SHOTS, { recursive: true });
    const id = await newRequest();
    const page = await web.newPage();
    await page.setViewportSize(WIDE);
    await page.goto(`${web.base}/dashboard/connect?request=${id}`);
    await expect.poll(() => heading(page).textContent(), { timeout: 10_000 }).toBe("Sign in from Slack");
    const text = await page.locator("main").textContent();
    expect(text).toContain("To connect an AI client, sign in first");
    expect(text).toContain("you come back to this page");
    expect(text).toContain("/upbeat");
    expect(text).toContain("Home");
    // The visit alone leaves no after-login cookie behind (any site could cause the visit).
    const afterLogin = async () => (await web.context.cookies()).find((c) => c.name === "upbeat_after_login");
    expect(await afterLogin()).toBeUndefined();
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, "signed-out-1280.png"), fullPage: true });
    await page.setViewportSize(NARROW);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SHOTS, "signed-out-390.png"), fullPage: true });

    await page.getByRole("button", { name: "Continue here after I sign in" }).click();
    await expect.poll(() => page.getByRole("status").textContent(), { timeout: 10_000 }).toContain("Done.");
    expect(decodeURIComponent((await afterLogin())?.value ?? "")).toBe(`/dashboard/connect?request=${id}`);
    await page.screenshot({ path: join(SHOTS, "signed-out-resumed-390.png"), fullPage: true });

    // The sign-in link from Slack now lands on the consent page, not the dashboard's home.
    await page.goto(`${web.base}/dashboard/login?t=${encodeURIComponent(issueLoginToken(web.t.deps, TEAM, MAYA))}`);
    await page.waitForURL(`${web.base}/dashboard/connect?request=${id}`, { timeout: 10_000 });
    await expect
      .poll(() => heading(page).textContent(), { timeout: 10_000 })
      .toBe("Test Assistant wants to access Upbeat in Connect Rockets as Maya Okafor");
    expect(await afterLogin()).toBeUndefined();
    await page.close();
    expect(web.problems).toEqual([]);
  });

  it("signed out with an unknown request: the button says it is no longer open", async () => {
    await web.context.clearCookies();
    const page = await web.newPage();
    await page.goto(`${web.base}/dashboard/connect?request=req_never_issued_1111111111111`);
    await expect.poll(() => heading(page).textContent(), { timeout: 10_000 }).toBe("Sign in from Slack");
    await page.getByRole("button", { name: "Continue here after I sign in" }).click();
    await expect.poll(() => heading(page).textContent(), { timeout: 10_000 }).toBe("This request is no longer open");
    expect(await page.getByText("Start connecting again from your AI client.").count()).toBe(1);
    await page.close();
  });

  for (const [size, viewport] of [
    ["1280", WIDE],
    ["390", NARROW],
  ] as const) {
    it(`at ${size} px: names the client, the workspace and the person, the redirect host and the scopes; Approve returns to the client with a code`, async () => {
      const id = await newRequest();
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, MAYA, `/dashboard/connect?request=${id}`, { page });
      await expect
        .poll(() => heading(page).textContent(), { timeout: 10_000 })
        .toBe("Test Assistant wants to access Upbeat in Connect Rockets as Maya Okafor");
      const host = new URL(callback).host;
      expect(await page.locator(".consent-host-name").textContent()).toBe(host);
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toContain("assistant.example");
      expect(text).toContain("not verified");
      // The badge explains itself.
      expect(text).toContain("The client named itself; Upbeat cannot check who made it.");
      expect(text).toContain("Read standups, blockers, kudos and members of this workspace");
      expect(text).toContain(
        "submit and edit your standup answers, skip, set your time off, give kudos and resolve blockers — as you",
      );
      // Focused: no dashboard navigation to wander off into mid-flow.
      expect(await page.getByRole("navigation", { name: "Dashboard" }).count()).toBe(0);
      expect(await page.title()).toBe("Connect Test Assistant · Upbeat");
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      expect(await axeFindings(page)).toEqual([]);
      // The client asked for write: that is the default, and the person may narrow it to read only.
      expect(await page.getByLabel("Read and write").isChecked()).toBe(true);
      expect(await page.getByLabel("Read only").isChecked()).toBe(false);
      await page.screenshot({ path: join(SHOTS, `consent-${size}.png`), fullPage: true });
      // At 390 px the person chooses read only; at 1280 px she keeps what the client asked for.
      const readOnly = size === "390";
      if (readOnly) {
        await page.getByLabel("Read only").check();
        await page.screenshot({ path: join(SHOTS, `consent-read-only-${size}.png`), fullPage: true });
      }

      await page.getByRole("button", { name: "Approve" }).click();
      await page.waitForURL((url) => url.href.startsWith(`${callback}?`), { timeout: 10_000 });
      const back = new URL(page.url());
      expect(back.searchParams.get("code")).toMatch(/^upc_[0-9A-Za-z]{43}$/);
      expect(back.searchParams.get("state")).toBe(`state-${requests}`);
      const grants = await web.t.deps.db
        .select()
        .from(oauthGrants)
        .where(and(eq(oauthGrants.teamId, TEAM), eq(oauthGrants.userId, MAYA)));
      expect(grants.length).toBeGreaterThanOrEqual(1);
      const newest = grants.reduce((a, b) => (b.id > a.id ? b : a));
      expect(newest.scopes).toEqual(readOnly ? ["standups:read"] : ["standups:read", "standups:write"]);
      await page.close();
      expect(web.problems).toEqual([]);
    });
  }

  it("a metadata-document client: its document's host vouches; Deny returns access_denied and no grant", async () => {
    const id = await newRequest(false, DOC_CLIENT);
    const page = await web.newPage();
    const before = (await web.t.deps.db.select().from(oauthGrants)).length;
    await web.signIn(TEAM, ADMIN, `/dashboard/connect?request=${id}`, { page });
    await expect
      .poll(() => page.locator(".consent-origin").textContent(), { timeout: 10_000 })
      .toContain("Published by docs-assistant.example");
    expect(await page.getByText("not verified").count()).toBe(0);
    // Read only: the write scope is not offered, and there is nothing to choose.
    expect(await page.getByText("Submit and edit your standup answers", { exact: false }).count()).toBe(0);
    expect(await page.getByRole("radio").count()).toBe(0);
    await page.getByRole("button", { name: "Deny" }).click();
    await page.waitForURL((url) => url.href.startsWith(`${callback}?`), { timeout: 10_000 });
    expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");
    expect((await web.t.deps.db.select().from(oauthGrants)).length).toBe(before);

    // The same request again: answered already, so the page says to start over.
    await page.goto(`${web.base}/dashboard/connect?request=${id}`);
    await expect.poll(() => page.getByText("Start connecting again from your AI client.").count()).toBe(1);
    await page.close();
  });

  it("an unknown or expired request says to start again from the AI client", async () => {
    const page = await web.newPage();
    await page.setViewportSize(NARROW);
    await web.signIn(TEAM, MAYA, "/dashboard/connect?request=req_never_issued_0000000000000", { page });
    await expect
      .poll(() => heading(page).textContent(), { timeout: 10_000 })
      .toBe("This connection request has expired");
    expect(await page.getByText("Start connecting again from your AI client.").count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, "expired-390.png"), fullPage: true });
    await page.close();
  });
});

describe.runIf(hasChromium)("the consent page in the demo, signed out", () => {
  const web = useBrowser({
    app: {
      demoSignIn: {
        teamId: "T0CONDEMO",
        userId: "U0CONDEMOADM",
        name: "Dana Demo",
        member: { userId: "U0CONDEMOMEM", name: "Mo Demo" },
      },
    },
    seed: async (t) => {
      await t.installTeam("T0CONDEMO", { name: "Demo Rockets", installer: "U0CONDEMOADM" });
    },
    watch: { console: (text) => !text.includes("401") },
  });

  it("offers the demo's sign-in buttons beside the Slack steps", async () => {
    const page = await web.newPage();
    await page.goto(`${web.base}/dashboard/connect?request=req_demo_0000000000000000000000`);
    await expect
      .poll(() => page.getByRole("link", { name: "Sign in as the admin" }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.getByRole("link", { name: "Sign in as a member" }).count()).toBe(1);
    expect(await page.locator("main").textContent()).toContain("you come back to this page");
    await page.close();
    expect(web.problems).toEqual([]);
  });
});
