import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN, DEMO_TEAM, MEMBER } from "../../demo/people.ts";
import { type DemoReceiver, startDemoReceiver } from "../../demo/receiver.ts";
import { PLATFORM_STANDUP, PRODUCT_STANDUP, populateFakeSlack, seedDemo } from "../../demo/seed.ts";
import { giveTodaysKudos, openTodaysRuns, seedRuleAndWebhook } from "../../demo/seed-live.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { shown } from "../support/page-checks.ts";

const WIDTHS = [
  ["1280", { width: 1280, height: 900 }],
  ["390", { width: 390, height: 844 }],
] as const;

describe.runIf(hasChromium)("the demo in a real browser: sign in as the admin or as a member", () => {
  let receiver: DemoReceiver | undefined;
  const web = useBrowser({
    before: async () => {
      receiver = await startDemoReceiver();
    },
    app: {
      env: { WEBHOOK_ALLOW_PRIVATE: "true" },
      outbound: { allowPlainHttp: true },
      demoSignIn: {
        teamId: DEMO_TEAM.id,
        userId: ADMIN.id,
        name: ADMIN.realName,
        member: { userId: MEMBER.id, name: MEMBER.realName },
      },
    },
    // The signed-out dashboard's 401 from /api/me is expected; nothing else may fail.
    watch: { notFound: true, console: (text) => !text.includes("401") },
    seed: async (t) => {
      populateFakeSlack(t.fake);
      await seedDemo(t.deps);
      await seedRuleAndWebhook(t.deps, receiver!.url);
      await giveTodaysKudos(t.deps);
      await openTodaysRuns(t.deps);
      await t.deps.queue.drain();
    },
    cleanup: async () => {
      await receiver?.close();
    },
  });
  const { problems } = web;

  const role = (page: import("playwright-core").Page) =>
    page.evaluate(async () => ((await (await fetch("/dashboard/api/me")).json()) as { role: string }).role);

  it("the signed-out page offers both; each leads to a session of that role", async () => {
    mkdirSync(OUTPUT, { recursive: true });
    const page = await web.newPage();
    for (const [size, viewport] of WIDTHS) {
      await page.setViewportSize(viewport);
      await page.goto(`${web.base}/dashboard`);
      await expect
        .poll(() => page.getByRole("link", { name: "Sign in as a member", exact: true }).count(), { timeout: 15_000 })
        .toBe(1);
      expect(await page.getByRole("link", { name: "Sign in as the admin", exact: true }).count()).toBe(1);
      // Whom each signs in as, by name; and the card fits the narrow screen (no sideways scrolling).
      expect(await page.locator("main").textContent()).toContain(`the member is ${MEMBER.realName}`);
      const sideways = "document.documentElement.scrollWidth - document.documentElement.clientWidth";
      expect(await page.evaluate<number>(sideways), `${size} px scrolls sideways`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(OUTPUT, `demo-signed-out-${size}.png`), fullPage: true });
    }
    for (const [name, expected] of [
      ["Sign in as a member", "member"],
      ["Sign in as the admin", "admin"],
    ] as const) {
      await page.context().clearCookies();
      await page.goto(`${web.base}/dashboard`);
      const link = page.getByRole("link", { name, exact: true });
      await expect.poll(() => link.count(), { timeout: 15_000 }).toBe(1);
      await link.click();
      await page.waitForURL(`${web.base}/dashboard`);
      await expect
        .poll(() => page.getByRole("button", { name: /sign out/i }).count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
      expect(await role(page)).toBe(expected);
      for (const [size, viewport] of WIDTHS) {
        await page.setViewportSize(viewport);
        await page.waitForLoadState("networkidle");
        await shown(page);
        await page.screenshot({ path: join(OUTPUT, `demo-overview-${expected}-${size}.png`), fullPage: true });
      }
    }
    expect(problems).toEqual([]);
  });

  it("the first screen shows both standups running; the main pages as the admin and as a member", async () => {
    mkdirSync(OUTPUT, { recursive: true });
    for (const [who, userId, pages] of [
      ["admin", ADMIN.id, ["overview", "standups", "celebrations", "members"]],
      ["member", MEMBER.id, ["overview", "celebrations"]],
    ] as const) {
      const page = await web.signIn(DEMO_TEAM.id, userId, "/dashboard");
      for (const name of pages) {
        for (const [size, viewport] of WIDTHS) {
          await page.setViewportSize(viewport);
          await page.goto(`${web.base}/dashboard${name === "overview" ? "" : `/${name}`}`);
          await page.waitForLoadState("networkidle");
          if (name === "overview") {
            const main = page.locator("main");
            await expect
              .poll(async () => (await main.textContent()) ?? "", { timeout: 15_000 })
              .toContain(PRODUCT_STANDUP);
            const text = (await main.textContent()) ?? "";
            if (who === "admin") expect(text).toContain(PLATFORM_STANDUP);
            expect(text).not.toContain("No standup today");
          }
          await shown(page);
          await page.screenshot({ path: join(OUTPUT, `demo-${name}-${who}-${size}.png`), fullPage: true });
        }
      }
      await page.close();
    }
    expect(problems).toEqual([]);
  });
});
