import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { DEFAULT_QUESTIONS, TEMPLATES } from "../../src/features/templates/index.ts";
import { CHROMIUM, hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule, seedRun } from "../support/factories.ts";
import { shown } from "../support/page-checks.ts";

const TEAM = "T0WEB";
const ADMIN = "U0WEBADMIN";

if (!hasChromium) {
  process.stderr.write(
    `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium-headless-shell or chromium, or set CHROMIUM_PATH)\n`,
  );
}

describe.runIf(hasChromium)("the dashboard in a real browser", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Web Rockets" });
      t.fake.addChannel(TEAM, { id: "C0WEBSTAND", name: "web-standup", members: [ADMIN, "BT0WEBBOT"] });
      t.fake.addChannel(TEAM, { id: "C0WEBGNRL", name: "general", members: [ADMIN] });
      for (const [id, name] of [
        ["U0WEBANA", "Ana Lima"],
        ["U0WEBBEN", "Ben Okoro"],
        ["U0WEBMEM", "Mo Member"],
      ] as const) {
        await t.addMember(TEAM, id, { realName: name });
      }
      const scheduleId = await createSchedule(t.deps.db, t.clock, {
        teamId: TEAM,
        channelId: "C0WEBSTAND",
        time: "09:00",
      });
      const today = new Date().toISOString().slice(0, 10);
      for (let back = 6; back >= 0; back--) {
        const date = new Date(Date.now() - back * 86400_000).toISOString().slice(0, 10);
        await seedRun(t.deps.db, {
          teamId: TEAM,
          scheduleId,
          date,
          asked: ["U0WEBANA", "U0WEBBEN", "U0WEBMEM"],
          answers: {
            U0WEBANA: {
              answers: [`Shipped feature ${back}`, "Reviews :tada:", back % 3 === 0 ? "Blocked on review" : "none"],
              mood: "🙂",
            },
            ...(back % 2 === 0 ? { U0WEBBEN: { answers: ["Support, rotation", "Docs", "-"], mood: "😀" } } : {}),
          },
        });
      }
      expect(today).toMatch(/^\d{4}-/);
    },
    args: ["--disable-component-update", "--disable-sync"],
    acceptDownloads: true,
    watch: { console: true, otherHosts: true },
    watchEveryPage: true,
  });
  const { problems } = web;

  const signIn = (page: Page, userId: string) => web.signIn(TEAM, userId, undefined, { page });
  const newPage = () => web.newPage();

  it("signs in by link and shows the overview with today's answers and rendered charts", async () => {
    const page = await newPage();
    await signIn(page, ADMIN);
    await expect.poll(() => page.getByRole("heading", { name: "Overview" }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Shipped feature 0").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // Each answer under the question the run asked, the blocker question's marked; shortcodes show as emoji.
    const card = page.locator("article.answer", { hasText: "Shipped feature 0" });
    const [first, second, third] = DEFAULT_QUESTIONS;
    expect(await card.locator("dt").allInnerTexts()).toEqual([first, second, `${third}Blocker`]);
    expect(await card.locator("dd").nth(1).textContent()).toBe("Reviews 🎉");
    await expect.poll(() => page.locator("canvas").count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const sizes = await page
      .locator("canvas")
      .evaluateAll((els) =>
        els.map((e) => (e as unknown as { width: number }).width * (e as unknown as { height: number }).height),
      );
    expect(sizes.every((s) => s > 0)).toBe(true);
    await page.close();
  });

  it("creates a schedule from a template", async () => {
    const page = await newPage();
    await signIn(page, ADMIN);
    await page.goto(`${web.base}/dashboard/standups/new`);
    const channel = page.locator("#channel");
    await channel.click();
    await channel.fill("web-standup");
    await channel.press("Enter");
    await page.locator("#time").fill("10:15");
    const template = TEMPLATES[5]!;
    await page.locator("#template").selectOption(template.name);
    await page.getByRole("button", { name: "Use template" }).click();
    await page.getByRole("button", { name: "Create standup" }).click();
    await expect
      .poll(
        async () =>
          (
            await rows<{ questions: string[] }>(
              web.t.deps.db,
              sql`select questions from schedules where team_id = ${TEAM} and schedule_time = '10:15' and deleted_at is null`,
            )
          )[0]?.questions,
        { timeout: 10_000 },
      )
      .toEqual(template.questions);
    await page.close();
  });

  it("downloads the CSV from the reports page", async () => {
    const page = await newPage();
    await signIn(page, ADMIN);
    await page.goto(`${web.base}/dashboard/reports`);
    await expect.poll(() => page.getByText("Shipped feature 0").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^standups-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, "utf8");
    // A UTF-8 byte order mark first (spreadsheets read the encoding from it), then the spec's columns, mood_score last.
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(text.slice(1).split("\r\n")[0]).toBe(
      "standup_date,user_id,real_name,yesterday,today,blockers,mood,submitted_at,schedule_id,standup_name," +
        "question_1,answer_1,question_2,answer_2,question_3,answer_3,mood_score",
    );
    expect(text).toContain("Shipped feature 0");
    await page.close();
  });

  it("creates an MCP key, shows it once, and revokes it", async () => {
    const page = await newPage();
    await signIn(page, ADMIN);
    await page.goto(`${web.base}/dashboard/ai-access`);
    await page.locator("#key-name").fill("Browser test key");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => page.getByText(/svc_[0-9A-Za-z]{30,}/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole("button", { name: "I have copied it" }).click();
    await page
      .getByRole("button", { name: /Revoke/ })
      .first()
      .click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /Revoke/ })
      .click();
    await expect
      .poll(
        async () =>
          (
            await rows<{ revoked: boolean }>(
              web.t.deps.db,
              sql`select revoked_at is not null as revoked from mcp_keys where team_id = ${TEAM} and name = 'Browser test key'`,
            )
          )[0]?.revoked,
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect
      .poll(
        () =>
          page
            .getByRole("row", { name: /Browser test key/ })
            .getByText("Revoked")
            .count(),
        { timeout: 10_000 },
      )
      .toBe(1);
    expect(
      await page
        .getByRole("row", { name: /Browser test key/ })
        .getByRole("button")
        .count(),
    ).toBe(0);
    await page.close();
  });

  it("a standup saved or paused shows in the list at once, without a reload", async () => {
    const page = await newPage();
    await signIn(page, ADMIN);
    await page.getByRole("link", { name: "Standups", exact: true }).click();
    await expect.poll(() => page.getByRole("heading", { name: "#web-standup" }).count()).toBeGreaterThan(0);
    // A full page load would drop this mark: the list must come from the cache the editor updated.
    await page.evaluate("window.__sameDocument = true");
    await page.getByRole("link", { name: "New standup" }).click();
    const channel = page.locator("#channel");
    await channel.click();
    await channel.fill("general");
    await channel.press("Enter");
    await page.locator("#time").fill("11:45");
    await page.getByRole("button", { name: "Create standup" }).click();
    await page.waitForURL(`${web.base}/dashboard/standups`);
    await expect.poll(() => page.getByText("Created the standup in #general.").count()).toBe(1);
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "#general" }) });
    // The schedule line says the time (the next run may say it too).
    await expect.poll(() => card.locator(".schedule-when").textContent()).toContain("at 11:45");

    await card.getByRole("button", { name: "Pause standup in #general" }).click();
    // Pausing is confirmed first (it would stop today's open run).
    await page
      .getByRole("dialog", { name: /^Pause / })
      .getByRole("button", { name: "Pause standup" })
      .click();
    await expect.poll(() => page.getByText("Paused the standup in #general.").count()).toBe(1);
    await expect.poll(() => card.getByText("Paused", { exact: true }).count()).toBe(1);
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Overview" }).count()).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Standups", exact: true }).click();
    await expect.poll(() => card.getByText("Paused", { exact: true }).count()).toBe(1);
    expect(await page.evaluate("window.__sameDocument")).toBe(true);
    await page.close();
  });

  it("signing out, or a request answering 401, shows the sign-in page with the reason", async () => {
    const page = await newPage();
    await signIn(page, ADMIN);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => page.getByText("You have signed out.").count()).toBe(1);

    await signIn(page, ADMIN);
    await expect.poll(() => page.getByRole("heading", { name: "Overview" }).count()).toBeGreaterThan(0);
    // Every request of the overview answered first: one still in flight would end the session before the click.
    await page.waitForLoadState("networkidle");
    const before = problems.length;
    await web.context.clearCookies();
    await page.getByRole("link", { name: "Members" }).click();
    await expect.poll(() => page.getByText("Your session has ended. Sign in again.").count()).toBe(1);
    expect(await page.getByRole("heading", { name: "Sign in from Slack" }).count()).toBe(1);
    // Chromium logs the 401 itself; that one is expected here.
    const logged = problems.splice(before);
    expect(logged.every((p) => p.includes("401"))).toBe(true);
    await page.close();
  });

  it("a member sees no admin pages", async () => {
    const page = await newPage();
    await signIn(page, "U0WEBMEM");
    await expect.poll(() => page.getByRole("link", { name: "Reports" }).count()).toBeGreaterThan(0);
    expect(await page.getByRole("link", { name: "Members" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Webhooks" }).count()).toBe(0);
    await page.goto(`${web.base}/dashboard/members`);
    await expect.poll(() => page.getByRole("heading", { name: "Admins only" }).count()).toBeGreaterThan(0);
    await page.close();
  });

  it("renders the overview at 360 px wide (screenshot saved for review) with no console errors or outside requests", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 360, height: 780 });
    await signIn(page, ADMIN);
    await expect.poll(() => page.locator("canvas").count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(1);
    // Charts do not animate here (reduced motion): once nothing is loading, the picture shows the real values.
    await shown(page);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "overview-360.png"), fullPage: true });
    await page.close();
    expect(problems).toEqual([]);
  });
});
