import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type BrowserHarness, OUTPUT, useBrowser } from "./browser.ts";
import { seedEveryPage } from "./every-page-seed.ts";
import { NARROW, NAV_ENTRIES, WIDE } from "./nav-entries.ts";
import { axeFindings, type PageWatch, rawIds, settled, sidewaysScroll, watchPage } from "./page-checks.ts";
import { startReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

/**
 * The every-page check, shared by its three files (test/browser/every-page-*.test.ts): one file each for the
 * admin's pages, the member's pages and the admin's dialogs, so no one file of ~100 s bounds a worker's tail.
 */

/** Where the screenshots go: one per page, role and width. */
export const SHOTS = join(OUTPUT, "every-page");

/** Every line of the page's visible text that shows a raw Slack id, where a name belongs. */
async function rawIdLines(page: Page): Promise<string[]> {
  const text = await page.evaluate<string>("document.body.innerText");
  return text
    .split("\n")
    .filter((line) => rawIds(line).length > 0)
    .map((line) => `raw id: ${line.trim().slice(0, 160)}`);
}

/** The browser, app and seed of an every-page file: the every-page seed, with a webhook receiver that answers 204. */
export function useEveryPageBrowser(): BrowserHarness {
  let receiver: WebhookReceiver | undefined;
  return useBrowser({
    before: async () => {
      receiver = await startReceiver(() => ({ status: 204 }));
    },
    app: () => ({ env: { WEBHOOK_ALLOW_PRIVATE: "true" }, outbound: { allowPlainHttp: true } }),
    seed: (t) => seedEveryPage(t, `${receiver?.origin}/in`),
    cleanup: async () => {
      await receiver?.close();
    },
    args: ["--disable-sync", "--disable-component-update"],
    timeout: 180_000,
  });
}

/** Everything wrong with the page as shown now: sideways scroll, raw ids, trouble since the last call, axe. */
export async function check(page: Page, what: string, watch: PageWatch): Promise<string[]> {
  const found: string[] = [];
  const overflow = await sidewaysScroll(page);
  if (overflow > 0) found.push(`scrolls sideways by ${overflow} px`);
  found.push(...(await rawIdLines(page)));
  found.push(...watch.take());
  found.push(...(await axeFindings(page)).map((f) => `axe: ${f}`));
  return found.map((f) => `${what}: ${f}`);
}

/** A new watched page at `viewport`, signed in as `userId` of `team`. */
export async function signedIn(
  web: BrowserHarness,
  team: string,
  userId: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; watch: PageWatch }> {
  mkdirSync(SHOTS, { recursive: true });
  const page = await web.newPage();
  await page.setViewportSize(viewport);
  const watch = watchPage(page);
  await web.signIn(team, userId, undefined, { page });
  return { page, watch };
}

/**
 * Walks every entry of the navigation `userId` sees (the admin's entries only for "admin") at `size` px, each page
 * through its link, and returns what is wrong on each: shown, settled, screenshotted and checked.
 */
export async function walkNavigation(
  web: BrowserHarness,
  team: string,
  role: "admin" | "member",
  userId: string,
  size: "1280" | "390",
): Promise<string[]> {
  const viewport = size === "1280" ? WIDE : NARROW;
  const entries = NAV_ENTRIES.filter((e) => !e.admin || role === "admin");
  const { page, watch } = await signedIn(web, team, userId, viewport);
  const problems: string[] = [];
  for (const entry of entries) {
    if (viewport === NARROW) await page.getByRole("button", { name: "Menu" }).click();
    await page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: entry.label, exact: true })
      .click();
    await page.waitForURL(`${web.base}/dashboard${entry.path}`);
    await page.getByRole("heading", { level: 1, name: entry.label, exact: true }).waitFor({ timeout: 10_000 });
    await settled(page, watch);
    const slug = entry.path.slice(1) || "overview";
    await page.screenshot({ path: join(SHOTS, `${role}-${slug}-${size}.png`), fullPage: true });
    problems.push(...(await check(page, `${role} ${size} ${entry.label}`, watch)));
  }
  await watch.idle();
  problems.push(...watch.take().map((p) => `${role} ${size} after the last page: ${p}`));
  await page.close();
  return problems;
}
