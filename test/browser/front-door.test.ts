import { describe, expect, it } from "vitest";
import { PACKAGE_VERSION } from "../../src/http/server.ts";
import { hasChromium, useBrowser } from "../support/browser.ts";

const TEAM = "T0DOOR";
const ADMIN = "U0DOORADMIN";

describe.runIf(hasChromium)("the front door and the demo's sign-in, in a real browser", () => {
  const web = useBrowser({
    app: { demoSignIn: { teamId: TEAM, userId: ADMIN, name: "Dana <Demo> Admin" } },
    // No 404 anywhere (a missing /favicon.ico included); the signed-out dashboard's 401 from /api/me is expected.
    watch: { notFound: true, console: (text) => !text.includes("401") },
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Door Works", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Dana Admin" });
    },
  });
  const { problems } = web;

  it("GET / shows a page with the version and links; the dashboard link leads to the app", async () => {
    const page = await web.newPage();
    const res = await page.goto(`${web.base}/`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-type"]).toContain("text/html");
    await expect.poll(() => page.getByRole("heading", { name: "Upbeat" }).count()).toBe(1);
    expect(await page.locator("body").textContent()).toContain(PACKAGE_VERSION);
    for (const name of ["Add to Slack", "Dashboard", "Slack app manifest", "API description", "Health"]) {
      expect(await page.getByRole("link", { name, exact: true }).count()).toBe(1);
    }
    await page.getByRole("link", { name: "API description", exact: true }).click();
    await page.waitForURL(`${web.base}/openapi.json`);
    expect(await page.locator("body").textContent()).toContain('"openapi"');
    await page.goBack();
    await page.getByRole("link", { name: "Dashboard", exact: true }).click();
    await page.waitForURL(`${web.base}/dashboard`);
    // Signed out in the demo: a fresh demo sign-in, the name escaped, then the real dashboard.
    const signIn = page.getByRole("link", { name: "Sign in as Dana <Demo> Admin" });
    await expect.poll(() => signIn.count(), { timeout: 15_000 }).toBe(1);
    await signIn.click();
    await page.waitForURL(`${web.base}/dashboard`);
    await expect
      .poll(() => page.getByRole("button", { name: /sign out/i }).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

describe.runIf(hasChromium)("outside the demo the signed-out page offers no demo sign-in", () => {
  const web = useBrowser({});
  it("says to sign in from Slack, and /demo/sign-in does not exist", async () => {
    const page = await web.newPage();
    await page.goto(`${web.base}/dashboard`);
    await expect
      .poll(() => page.getByRole("heading", { name: "Sign in from Slack" }).count(), { timeout: 15_000 })
      .toBe(1);
    expect(await page.getByRole("link", { name: /sign in as/i }).count()).toBe(0);
    const res = await web.t.inject({ method: "GET", url: "/demo/sign-in" });
    expect(res.statusCode).toBe(404);
  });
});
