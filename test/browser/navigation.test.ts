import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule, seedRun } from "../support/factories.ts";
import { NARROW, NAV_ENTRIES, WIDE } from "../support/nav-entries.ts";
import { shown } from "../support/page-checks.ts";

const TEAM = "T0NAV";
const ADMIN = "U0NAVADMIN";
const MEMBER = "U0NAVMEM";

const ENTRIES = NAV_ENTRIES;

const nav = (page: Page) => page.getByRole("navigation", { name: "Dashboard" });
const menuButton = (page: Page) => page.getByRole("button", { name: "Menu" });
const sidewaysScroll = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
/** The navigation also while the narrow screen's menu hides it (the role query finds only what is shown). */
const navElement = (page: Page) => page.locator('nav[aria-label="Dashboard"]');
const currentEntries = (page: Page) => navElement(page).locator('a[aria-current="page"]').allTextContents();

describe.runIf(hasChromium)("the dashboard's grouped navigation", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Nav Rockets", installer: ADMIN });
      t.fake.addChannel(TEAM, { id: "C0NAVSTAND", name: "nav-standup", members: [ADMIN, MEMBER, "BT0NAVBOT"] });
      await t.addMember(TEAM, MEMBER, { realName: "Mia Member" });
      const scheduleId = await createSchedule(t.deps.db, t.clock, {
        teamId: TEAM,
        channelId: "C0NAVSTAND",
        time: "09:00",
      });
      // Today's answers, so the overview in the screenshots shows a real day.
      await seedRun(t.deps.db, {
        teamId: TEAM,
        scheduleId,
        date: t.clock.now().toISOString().slice(0, 10),
        asked: [ADMIN, MEMBER],
        answers: { [MEMBER]: { answers: ["Shipped the menu", "Screenshots", "none"], mood: "🙂" } },
      });
    },
    watch: { console: true, otherHosts: true },
    watchEveryPage: true,
  });

  for (const [role, userId] of [
    ["admin", ADMIN],
    ["member", MEMBER],
  ] as const) {
    const entries = ENTRIES.filter((e) => !e.admin || role === "admin");
    for (const [size, viewport] of [
      ["1280", WIDE],
      ["390", NARROW],
    ] as const) {
      it(`as ${role} at ${size} px: every entry opens its page, marked current, and no page scrolls sideways`, async () => {
        const page = await web.newPage();
        await page.setViewportSize(viewport);
        await web.signIn(TEAM, userId, undefined, { page });
        const narrow = viewport === NARROW;
        // The page (and with it the bar and the navigation) renders once the session is known.
        await expect.poll(() => page.getByRole("heading", { level: 1, name: "Overview" }).count()).toBe(1);
        // The menu button exists only where the sidebar does not fit.
        expect(await menuButton(page).isVisible()).toBe(narrow);
        expect(await navElement(page).isVisible()).toBe(!narrow);

        // The entries a person sees, in their groups and order; admin-only ones only for admins.
        if (narrow) {
          await menuButton(page).click();
          // The phone's bar has no room for the workspace and role; the open menu names them.
          expect(await navElement(page).locator(".nav-context").textContent()).toBe(
            `Nav Rockets · ${role === "admin" ? "Admin" : "Member"}`,
          );
        }
        const listed = await nav(page).getByRole("link").allTextContents();
        expect(listed).toEqual(entries.map((e) => e.label));
        const groups: (string | null)[] = [];
        for (const list of await nav(page).getByRole("list").all()) {
          const labelId = await list.getAttribute("aria-labelledby");
          groups.push(await page.locator(`[id="${labelId}"]`).textContent());
        }
        expect(groups).toEqual([...new Set(entries.map((e) => e.group))]);
        if (narrow) await menuButton(page).click();

        for (const entry of entries) {
          if (narrow) {
            // Two clicks away: the menu, then the entry.
            await menuButton(page).click();
            expect(await menuButton(page).getAttribute("aria-expanded")).toBe("true");
            expect(await navElement(page).isVisible()).toBe(true);
          }
          await nav(page).getByRole("link", { name: entry.label, exact: true }).click();
          await page.waitForURL(`${web.base}/dashboard${entry.path}`);
          await expect
            .poll(() => page.getByRole("heading", { level: 1, name: entry.label, exact: true }).count(), {
              timeout: 10_000,
            })
            .toBe(1);
          expect(await currentEntries(page)).toEqual([entry.label]);
          if (narrow) {
            // Choosing a page closes the menu, so the page is what the reader sees.
            expect(await menuButton(page).getAttribute("aria-expanded")).toBe("false");
            expect(await navElement(page).isVisible()).toBe(false);
          }
          // Let lazy pages and their data settle before measuring the width.
          await page.waitForLoadState("networkidle");
          expect(await sidewaysScroll(page), `${entry.label} scrolls sideways`).toBeLessThanOrEqual(0);
        }
        if (role === "member") {
          // Typing an admin page's address still shows the admins-only notice, with no entry marked.
          await page.goto(`${web.base}/dashboard/rules`);
          await expect.poll(() => page.getByRole("heading", { name: "Admins only" }).count()).toBe(1);
          expect(await currentEntries(page)).toEqual([]);
        }
        await page.close();
        expect(web.problems).toEqual([]);
      });
    }
  }

  it("marks the section of a page below an entry (a standup's editor marks Standups)", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/standups/new");
    await expect.poll(() => page.getByRole("heading", { name: "New standup" }).count()).toBe(1);
    expect(await currentEntries(page)).toEqual(["Standups"]);
    await page.close();
  });

  it("at 1280 px the keyboard reaches the bar, then the entries in order, then the page", async () => {
    const page = await web.newPage();
    await page.setViewportSize(WIDE);
    await web.signIn(TEAM, ADMIN, undefined, { page });
    await expect.poll(() => page.getByRole("heading", { name: "Overview" }).count()).toBe(1);
    await page.evaluate("document.activeElement?.blur()");
    const reached: string[] = [];
    for (let i = 0; i < ENTRIES.length + 4; i++) {
      await page.keyboard.press("Tab");
      reached.push(await page.evaluate<string>("document.activeElement?.textContent?.trim() ?? ''"));
    }
    expect(reached.slice(0, 3)).toEqual(["Skip to content", "Upbeat", "Sign out"]);
    expect(reached.slice(3, 3 + ENTRIES.length)).toEqual(ENTRIES.map((e) => e.label));
    // After the navigation comes the page itself, not anything hidden.
    expect(await page.evaluate<boolean>("!!document.activeElement?.closest('main')")).toBe(true);
    await page.close();
  });

  it("at 390 px the menu opens by keyboard, Escape closes it and gives focus back to its button", async () => {
    const page = await web.newPage();
    await page.setViewportSize(NARROW);
    await web.signIn(TEAM, ADMIN, undefined, { page });
    await expect.poll(() => page.getByRole("heading", { name: "Overview" }).count()).toBe(1);
    expect(await menuButton(page).getAttribute("aria-controls")).toBe(await navElement(page).getAttribute("id"));
    await menuButton(page).focus();
    await page.keyboard.press("Enter");
    expect(await menuButton(page).getAttribute("aria-expanded")).toBe("true");
    // The next Tab goes from the button into the list it opened.
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string>("document.activeElement?.textContent ?? ''")).toBe("Overview");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    expect(await menuButton(page).getAttribute("aria-expanded")).toBe("false");
    expect(await navElement(page).isVisible()).toBe(false);
    expect(await page.evaluate<string>("document.activeElement?.textContent?.trim() ?? ''")).toBe("Menu");
    // Escape on the button itself closes it too; choosing the page already shown closes it as well.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Escape");
    expect(await menuButton(page).getAttribute("aria-expanded")).toBe("false");
    await menuButton(page).click();
    await nav(page).getByRole("link", { name: "Overview", exact: true }).click();
    expect(await menuButton(page).getAttribute("aria-expanded")).toBe("false");
    await page.close();
    expect(web.problems).toEqual([]);
  });

  it("takes screenshots of the overview at both widths, menu closed and open (saved for review)", async () => {
    mkdirSync(OUTPUT, { recursive: true });
    const page = await web.newPage();
    await web.signIn(TEAM, ADMIN, undefined, { page });
    for (const [size, viewport] of [
      ["1280", WIDE],
      ["768", { width: 768, height: 900 }],
      ["390", NARROW],
    ] as const) {
      await page.setViewportSize(viewport);
      await expect.poll(() => page.getByRole("heading", { name: "Overview" }).count()).toBe(1);
      await page.waitForLoadState("networkidle");
      await shown(page);
      await page.screenshot({ path: join(OUTPUT, `nav-overview-${size}.png`), fullPage: true });
      if (size !== "1280") {
        await menuButton(page).click();
        expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(OUTPUT, `nav-overview-${size}-menu-open.png`) });
        await menuButton(page).click();
      }
    }
    await page.close();
    expect(web.problems).toEqual([]);
  });
});
