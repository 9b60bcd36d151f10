import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { ADMIN, MEMBER, seedEveryPage, TEAM } from "../support/every-page-seed.ts";
import { NARROW, NAV_ENTRIES, WIDE } from "../support/nav-entries.ts";
import { axeFindings, type PageWatch, rawIds, settled, sidewaysScroll, watchPage } from "../support/page-checks.ts";
import { startReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

/** Where this file's screenshots go: one per page, role and width. */
const SHOTS = join(OUTPUT, "every-page");

/** Every line of the page's visible text that shows a raw Slack id, where a name belongs. */
async function rawIdLines(page: Page): Promise<string[]> {
  const text = await page.evaluate<string>("document.body.innerText");
  return text
    .split("\n")
    .filter((line) => rawIds(line).length > 0)
    .map((line) => `raw id: ${line.trim().slice(0, 160)}`);
}

describe.runIf(hasChromium)("every page, both widths, both roles", () => {
  let receiver: WebhookReceiver;
  const web = useBrowser({
    before: async () => {
      receiver = await startReceiver(() => ({ status: 204 }));
    },
    app: () => ({ env: { WEBHOOK_ALLOW_PRIVATE: "true" }, outbound: { allowPlainHttp: true } }),
    seed: (t) => seedEveryPage(t, `${receiver.origin}/in`),
    cleanup: async () => {
      await receiver?.close();
    },
    args: ["--disable-sync", "--disable-component-update"],
    timeout: 180_000,
  });

  /** Everything wrong with the page as shown now: sideways scroll, raw ids, trouble since the last call, axe. */
  async function check(page: Page, what: string, watch: PageWatch) {
    const found: string[] = [];
    const overflow = await sidewaysScroll(page);
    if (overflow > 0) found.push(`scrolls sideways by ${overflow} px`);
    found.push(...(await rawIdLines(page)));
    found.push(...watch.take());
    found.push(...(await axeFindings(page)).map((f) => `axe: ${f}`));
    return found.map((f) => `${what}: ${f}`);
  }

  for (const [role, userId] of [
    ["admin", ADMIN],
    ["member", MEMBER],
  ] as const) {
    const entries = NAV_ENTRIES.filter((e) => !e.admin || role === "admin");
    for (const [size, viewport] of [
      ["1280", WIDE],
      ["390", NARROW],
    ] as const) {
      it(`as ${role} at ${size} px: every page through the navigation, clean and accessible`, async () => {
        mkdirSync(SHOTS, { recursive: true });
        const page = await web.newPage();
        await page.setViewportSize(viewport);
        const watch = watchPage(page);
        await web.signIn(TEAM, userId, undefined, { page });
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
        expect(problems).toEqual([]);
      }, 60_000);
    }
  }

  /** Forms and dialogs a page keeps behind a button or its own address (admin). */
  const EXTRAS: {
    name: string;
    label: string;
    path: string;
    open?: (page: Page) => Promise<void>;
    /** What the button shows (default: a modal dialog). */
    shown?: string;
  }[] = [
    { name: "standup-editor", label: "Standups", path: "/standups/new" },
    {
      name: "pause-dialog",
      label: "Standups",
      path: "/standups",
      open: (page) =>
        page
          .getByRole("button", { name: /^Pause/ })
          .first()
          .click(),
    },
    {
      name: "role-dialog",
      label: "Members",
      path: "/members",
      // A role change asks first: choosing another role in a member's select opens the dialog.
      open: async (page) => {
        await page.getByLabel("Role for Maya Okafor").selectOption("admin");
      },
    },
    {
      name: "rule-delete",
      label: "Rules",
      path: "/rules",
      open: (page) =>
        page
          .getByRole("button", { name: /^Delete/ })
          .first()
          .click(),
    },
    {
      name: "webhook-deliveries",
      label: "Webhooks",
      path: "/webhooks",
      open: (page) =>
        page
          .getByRole("button", { name: /^Deliveries/ })
          .first()
          .click(),
      shown: "section.webhook-log",
    },
    {
      name: "webhook-delete",
      label: "Webhooks",
      path: "/webhooks",
      open: (page) =>
        page
          .getByRole("button", { name: /^Delete/ })
          .first()
          .click(),
    },
  ];

  for (const [size, viewport] of [
    ["1280", WIDE],
    ["390", NARROW],
  ] as const) {
    it(`as admin at ${size} px: the forms and dialogs behind buttons are accessible too`, async () => {
      mkdirSync(SHOTS, { recursive: true });
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      const watch = watchPage(page);
      await web.signIn(TEAM, ADMIN, undefined, { page });
      const problems: string[] = [];
      for (const extra of EXTRAS) {
        await page.goto(`${web.base}/dashboard${extra.path}`);
        await page.locator("main h1").first().waitFor({ timeout: 10_000 });
        await settled(page, watch);
        if (extra.open) {
          await extra.open(page);
          await page.locator(extra.shown ?? "dialog[open]").waitFor({ timeout: 5_000 });
          await settled(page, watch);
        }
        await page.screenshot({ path: join(SHOTS, `admin-${extra.name}-${size}.png`), fullPage: true });
        problems.push(...(await check(page, `admin ${size} ${extra.name}`, watch)));
        if (extra.open && !extra.shown) await page.keyboard.press("Escape");
      }
      await watch.idle();
      problems.push(...watch.take().map((p) => `admin ${size} after the last dialog: ${p}`));
      await page.close();
      expect(problems).toEqual([]);
    }, 60_000);
  }
});
