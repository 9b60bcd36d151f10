import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { seedBlocker } from "../support/blockers.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule } from "../support/factories.ts";
import { NARROW, WIDE } from "../support/nav-entries.ts";

const TEAM = "T0BLKWEB";
const ADMIN = "U0BLKWEBADMIN";
const ANA = "U0BLKWEBANA";
const BEN = "U0BLKWEBBEN";

describe.runIf(hasChromium)("the Blockers page in a real browser", () => {
  // The server's clock is the real one (the browser drops a session cookie that expired by its own clock).
  const day = (n: number) => DateTime.utc().plus({ days: n }).toISODate()!;
  let web1 = "";
  let web2 = "";
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Blocked Rockets", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin" });
      await t.addMember(TEAM, ANA, { realName: "Ana Lopez" });
      await t.addMember(TEAM, BEN, { realName: "Ben Okafor" });
      web1 = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0BLKWEB", time: "09:00" });
      web2 = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0BLKAPI", time: "10:00" });
      await t.deps.db.execute(sql`update schedules set name = 'Web standup' where id = ${web1}`);
      await t.deps.db.execute(sql`update schedules set name = 'API standup' where id = ${web2}`);
      const seed = (scheduleId: string, userId: string, text: string, openedDays: number) =>
        seedBlocker(t.deps.db, {
          teamId: TEAM,
          scheduleId,
          userId,
          text,
          openedDate: day(-openedDays),
          lastDate: day(0),
        });
      await seed(web1, BEN, "Staging environment is down", 6);
      await seed(web2, BEN, "Waiting for the API keys from the vendor", 2);
      await seed(web1, ANA, "Design review pending", 4);
    },
  });
  const { problems } = web;

  const rowTexts = (page: Page) => page.locator("tbody tr").allInnerTexts();
  const noIds = async (page: Page) => {
    const text = await page.locator("main").textContent();
    expect(text ?? "").not.toMatch(/U0BLKWEB|C0BLK|\bS[0-9A-F]{10}\b/);
  };
  const resolvedOf = (id: string) =>
    rows<{ status: string; resolved_by: string; resolution_note: string | null }>(
      web.t.deps.db,
      sql`select status, resolved_by, resolution_note from blockers where team_id = ${TEAM} and user_id = ${id}
          and text like 'Laptop%' order by id desc limit 1`,
    );

  for (const [size, viewport] of [
    ["1280", WIDE],
    ["390", NARROW],
  ] as const) {
    it(`at ${size} px: open first by age, filter by member and standup, resolve with a note, see it under Resolved`, async () => {
      // Ana's own blocker for this width, the newest: last in the open list.
      await seedBlocker(web.t.deps.db, {
        teamId: TEAM,
        scheduleId: web2,
        userId: ANA,
        text: `Laptop at ${size} px is broken`,
        openedDate: day(0),
      });
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, ANA, undefined, { page });
      // Through the navigation (a menu at 390 px).
      if (viewport === NARROW) await page.getByRole("button", { name: "Menu" }).click();
      await page.getByRole("link", { name: "Blockers", exact: true }).click();
      await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(4);
      const open = await rowTexts(page);
      expect(open[0]).toContain("Staging environment is down");
      expect(open[0]).toContain("6 days");
      expect(open[1]).toContain("Design review pending");
      expect(open[2]).toContain("Waiting for the API keys");
      expect(open[3]).toContain(`Laptop at ${size} px is broken`);
      expect(open[3]).toContain("since today");
      expect(open.join("\n")).toContain("Ben Okafor");
      await noIds(page);
      // A member resolves only their own: no button on Ben's.
      expect(await page.locator("tbody tr").nth(0).getByRole("button").count()).toBe(0);
      expect(open[0]).toContain("Ben Okafor or an admin can resolve it");
      expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
      mkdirSync(OUTPUT, { recursive: true });
      await page.screenshot({ path: join(OUTPUT, `blockers-open-${size}.png`), fullPage: true });

      // Filters live in the address, by name in the selects.
      await page.locator("#member-filter").selectOption({ label: "Ben Okafor" });
      await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(2);
      expect(page.url()).toContain(`member=${BEN}`);
      await page.locator("#standup-filter").selectOption({ label: "API standup" });
      await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(1);
      expect(await rowTexts(page)).toEqual([expect.stringContaining("Waiting for the API keys")]);
      expect(page.url()).toContain(`standup=${web2}`);
      await page.goBack();
      await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(2);
      await page.locator("#member-filter").selectOption({ label: "Everyone" });
      await page.locator("#standup-filter").selectOption({ label: "All standups" });
      await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(4);

      // Resolve with a note: a dialog, confirmed.
      const mine = page.locator("tbody tr").filter({ hasText: `Laptop at ${size} px` });
      await mine.getByRole("button", { name: /Resolve/ }).click();
      const dialog = page.getByRole("dialog", { name: "Resolve this blocker?" });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByLabel("How was it resolved? (optional)").fill("IT sent a new one");
      await page.screenshot({ path: join(OUTPUT, `blockers-resolve-${size}.png`), fullPage: true });
      await dialog.getByRole("button", { name: "Resolve", exact: true }).click();
      await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(3);
      expect(await page.getByText(/^Resolved: Ana Lopez's blocker/).count()).toBe(1);
      expect(await resolvedOf(ANA)).toEqual([
        { status: "resolved", resolved_by: ANA, resolution_note: "IT sent a new one" },
      ]);

      // It moved to Resolved, with who and the note.
      await page.locator("label.segment", { hasText: "Resolved" }).click();
      await expect.poll(() => page.url(), { timeout: 10_000 }).toContain("status=resolved");
      await expect
        .poll(
          () =>
            page
              .locator("tbody tr")
              .filter({ hasText: `Laptop at ${size} px` })
              .count(),
          { timeout: 10_000 },
        )
        .toBe(1);
      const done = await page
        .locator("tbody tr")
        .filter({ hasText: `Laptop at ${size} px` })
        .textContent();
      expect(done).toContain("by Ana Lopez (in the dashboard)");
      expect(done).toContain("IT sent a new one");
      await noIds(page);
      expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
      await page.screenshot({ path: join(OUTPUT, `blockers-resolved-${size}.png`), fullPage: true });
      await page.close();
    }, 90_000);
  }

  it("an admin resolves anyone's; the overview's Active blockers counts the open items", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/blockers");
    await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(3);
    await page
      .locator("tbody tr")
      .nth(0)
      .getByRole("button", { name: /Resolve/ })
      .click();
    const dialog = page.getByRole("dialog", { name: "Resolve this blocker?" });
    await dialog.getByRole("button", { name: "Resolve", exact: true }).click();
    await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(2);
    await page.goto(`${web.base}/dashboard`);
    const value = page.locator(".stat").filter({ hasText: "Active blockers" }).locator(".stat-value");
    await expect.poll(() => value.textContent(), { timeout: 10_000 }).toBe("2");
    const help = await value.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${help}"]`).textContent()).toBe("open blockers: reported and not resolved yet");
    await page.close();
    expect(problems).toEqual([]);
  });
});
