import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser.ts";
import { check, SHOTS, signedIn, useEveryPageBrowser } from "../support/every-page.ts";
import { ADMIN, TEAM } from "../support/every-page-seed.ts";
import { NARROW, WIDE } from "../support/nav-entries.ts";
import { settled } from "../support/page-checks.ts";

// The admin's forms and dialogs, at both widths (one of the three every-page files; test/support/every-page.ts).
describe.runIf(hasChromium)("every form and dialog behind a button, both widths, as admin", () => {
  const web = useEveryPageBrowser();

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
      const { page, watch } = await signedIn(web, TEAM, ADMIN, viewport);
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
