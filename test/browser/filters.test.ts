import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { schedules } from "../../src/db/schema.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule, seedRun } from "../support/factories.ts";

const TEAM = "T0FLT";
const ADMIN = "U0FLTADMIN";
/** Ada, Bo, Cy and Di answer Alpha; only Ada and Bo are in Beta. The admin is a member too, never asked. */
const PEOPLE = [
  ["U0FLTADA", "Ada Lovelace"],
  ["U0FLTBO", "Bo Diddley"],
  ["U0FLTCY", "Cy Twombly"],
  ["U0FLTDI", "Di Fosse"],
] as const;
const [ADA, BO, CY] = PEOPLE.map(([id]) => id) as [string, string, string, string];

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };

/** The label a select shows. */
const selected = async (page: Page, id: string) => (await page.locator(`#${id} option:checked`).textContent()) ?? "";
const memberRows = (page: Page) => page.locator("section[aria-labelledby='a-members'] tbody tr");
const cards = (page: Page) => page.locator("article.answer");
const sidewaysScroll = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
const query = (page: Page) => new URL(page.url()).searchParams;

describe.runIf(hasChromium)("analytics and reports filters live in the address", () => {
  let alpha = "";
  let beta = "";
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Filter Rockets", installer: ADMIN });
      t.fake.addChannel(TEAM, { id: "C0FLTALPHA", name: "alpha-team", members: [ADMIN] });
      t.fake.addChannel(TEAM, { id: "C0FLTBETA", name: "beta-team", members: [ADMIN] });
      for (const [id, name] of PEOPLE) await t.addMember(TEAM, id, { realName: name });
      alpha = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0FLTALPHA", time: "00:05" });
      beta = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0FLTBETA", time: "00:05" });
      await t.deps.db.update(schedules).set({ name: "Alpha sync" }).where(eq(schedules.id, alpha));
      await t.deps.db.update(schedules).set({ name: "Beta sync" }).where(eq(schedules.id, beta));
      const dayBack = (back: number) => new Date(Date.now() - back * 86400_000).toISOString().slice(0, 10);
      // Five past days: everyone answers Alpha; in Beta, Ada answers and Bo never does.
      for (let back = 5; back >= 1; back--) {
        await seedRun(t.deps.db, {
          teamId: TEAM,
          scheduleId: alpha,
          date: dayBack(back),
          asked: PEOPLE.map(([id]) => id),
          answers: Object.fromEntries(
            PEOPLE.map(([id], n) => [id, { answers: [`Alpha work ${back}`, `Alpha plan ${n}`, "none"] as const }]),
          ) as Parameters<typeof seedRun>[1]["answers"],
        });
        await seedRun(t.deps.db, {
          teamId: TEAM,
          scheduleId: beta,
          date: dayBack(back),
          asked: [ADA, BO],
          answers: { [ADA]: { answers: [`Beta work ${back}`, "Beta plan", "none"] } },
        });
      }
    },
    // A link to a standup that does not exist answers 404 on purpose; anything else in the console counts.
    watch: { console: (text) => !text.includes("404") },
    timeout: 180_000,
  });
  const { problems } = web;

  it("analytics: standup, member and period go into the address; the figures follow; reload and back restore them", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/analytics");
    await expect.poll(() => memberRows(page).count(), { timeout: 15_000 }).toBe(5);
    // Alpha 20 of 20, Beta 5 of 10: 25 of 30.
    expect(await page.locator(".stat-value").first().textContent()).toBe("83%");

    await page.locator("#standup-filter").selectOption({ label: "Beta sync" });
    await expect.poll(() => query(page).get("standup")).toBe(beta);
    // Beta: Ada answered 5 of 5, Bo none: 50 %.
    await expect.poll(() => memberRows(page).count()).toBe(2);
    await expect.poll(() => page.locator(".stat-value").first().textContent()).toBe("50%");

    await page.locator("#member-filter").selectOption({ label: "Bo Diddley" });
    await expect.poll(() => query(page).get("member")).toBe(BO);
    await expect.poll(() => page.locator(".stat-value").first().textContent()).toBe("0%");
    await page.locator("#range").selectOption({ label: "Last 7 days" });
    await expect.poll(() => query(page).get("days")).toBe("7");

    await page.reload();
    await expect.poll(() => selected(page, "standup-filter"), { timeout: 15_000 }).toBe("Beta sync");
    await expect.poll(() => selected(page, "member-filter")).toBe("Bo Diddley");
    await expect.poll(() => selected(page, "range")).toBe("Last 7 days");
    await expect.poll(() => memberRows(page).count()).toBe(1);

    await page.goBack();
    await expect.poll(() => selected(page, "range")).toBe("Last 30 days");
    expect(query(page).get("days")).toBe("30");
    await page.goBack();
    await expect.poll(() => selected(page, "member-filter")).toBe("Everyone");
    await expect.poll(() => memberRows(page).count()).toBe(2);
    await expect.poll(() => selected(page, "standup-filter")).toBe("Beta sync");

    // A member's row opens their answers in Reports, under the same period and standup.
    await memberRows(page).getByRole("link", { name: "Ada Lovelace" }).click();
    await page.waitForURL(/\/dashboard\/reports\?/);
    expect(Object.fromEntries(query(page))).toEqual({ days: "30", standup: beta, member: ADA });
    await expect.poll(() => selected(page, "member-filter"), { timeout: 15_000 }).toBe("Ada Lovelace");
    await expect.poll(() => cards(page).count()).toBe(5);
    await page.close();
    expect(problems).toEqual([]);
  });

  it("reports: typing a search replaces the address, ranges push it, and both survive a reload", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/reports");
    await expect.poll(() => cards(page).count(), { timeout: 15_000 }).toBe(25);
    const entries = await page.evaluate<number>("history.length");
    await page.locator("#q").fill("Beta");
    await expect.poll(() => query(page).get("q")).toBe("Beta");
    await expect.poll(() => cards(page).count()).toBe(5);
    // Typing replaced the entry rather than adding one per keystroke.
    expect(await page.evaluate<number>("history.length")).toBe(entries);

    await page.getByRole("button", { name: "Last 14 days" }).click();
    await expect.poll(() => query(page).get("days")).toBe("14");
    await page.locator("#member-filter").selectOption({ label: "Cy Twombly" });
    await expect.poll(() => query(page).get("member")).toBe(CY);
    await expect.poll(() => cards(page).count()).toBe(0);
    await page.reload();
    await expect.poll(() => selected(page, "member-filter"), { timeout: 15_000 }).toBe("Cy Twombly");
    expect(await page.locator("#q").inputValue()).toBe("Beta");
    expect(await page.getByRole("button", { name: "Last 14 days" }).getAttribute("aria-pressed")).toBe("true");
    await page.goBack();
    await expect.poll(() => selected(page, "member-filter")).toBe("Everyone");
    await expect.poll(() => cards(page).count()).toBe(5);
    // Back past "Last 14 days" to the search typed on the default range.
    await page.goBack();
    await expect.poll(() => query(page).get("days")).toBe("7");
    expect(await page.locator("#q").inputValue()).toBe("Beta");
    expect(await page.getByRole("button", { name: "Last 7 days" }).getAttribute("aria-pressed")).toBe("true");

    // A pause after a space: the address catches up ("Beta"), the box keeps the space for the next word.
    await page.locator("#q").fill("");
    await expect.poll(() => query(page).get("q")).toBeNull();
    await page.locator("#q").fill("Beta ");
    await expect.poll(() => query(page).get("q")).toBe("Beta");
    expect(await page.locator("#q").inputValue()).toBe("Beta ");
    await page.locator("#q").press("End");
    await page.locator("#q").pressSequentially("sync");
    expect(await page.locator("#q").inputValue()).toBe("Beta sync");
    await expect.poll(() => query(page).get("q")).toBe("Beta sync");
    await page.close();
    expect(problems).toEqual([]);
  });

  it("a member opening a shared link sees the other person's name, without calling an admin route", async () => {
    const page = await web.newPage();
    const adminCalls: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.startsWith("/dashboard/api/members")) adminCalls.push(r.url());
    });
    await web.signIn(TEAM, ADA, `/dashboard/reports?days=14&member=${BO}&standup=${alpha}`, { page });
    await expect.poll(() => selected(page, "member-filter"), { timeout: 15_000 }).toBe("Bo Diddley");
    await expect.poll(() => selected(page, "standup-filter")).toBe("Alpha sync");
    await expect.poll(() => cards(page).count()).toBe(5);
    expect(new Set(await page.locator("article.answer .answer-name").allInnerTexts())).toEqual(new Set(["Bo Diddley"]));

    // Reports link to Analytics with the same period, standup and member.
    await page.getByRole("link", { name: "See analytics" }).click();
    await page.waitForURL(/\/dashboard\/analytics\?/);
    expect(Object.fromEntries(query(page))).toEqual({ days: "14", standup: alpha, member: BO });
    await expect.poll(() => selected(page, "member-filter"), { timeout: 15_000 }).toBe("Bo Diddley");
    await expect.poll(() => selected(page, "standup-filter")).toBe("Alpha sync");
    await expect.poll(() => selected(page, "range")).toBe("Last 14 days");
    await expect.poll(() => memberRows(page).count()).toBe(1);
    expect(await memberRows(page).locator("td").first().textContent()).toBe("5");
    expect(adminCalls).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  });

  it("invalid values fall back to defaults; a removed standup or person is named as such, not as everyone", async () => {
    const page = await web.signIn(
      TEAM,
      ADMIN,
      "/dashboard/reports?days=abc&from=2026-02-31&to=x&member=bad%20id!&q=%20%20",
    );
    await expect.poll(() => cards(page).count(), { timeout: 15_000 }).toBe(25);
    await expect.poll(() => selected(page, "member-filter")).toBe("Everyone");
    expect(await page.getByRole("button", { name: "Last 7 days" }).getAttribute("aria-pressed")).toBe("true");

    await page.goto(`${web.base}/dashboard/reports?member=U0FLTGONE`);
    await expect
      .poll(() => selected(page, "member-filter"), { timeout: 15_000 })
      .toBe("Someone no longer in this workspace");
    await page.goto(`${web.base}/dashboard/analytics?days=12345&standup=S0NOSUCH`);
    await expect
      .poll(() => selected(page, "standup-filter"), { timeout: 15_000 })
      .toBe("A standup that no longer exists");
    await expect.poll(() => selected(page, "range")).toBe("Last 30 days");
    await page.getByText("This standup no longer exists").waitFor();
    await page.getByRole("button", { name: "Show all standups" }).click();
    await expect.poll(() => memberRows(page).count(), { timeout: 15_000 }).toBe(5);
    expect(query(page).get("standup")).toBe(null);
    await page.close();
    expect(problems).toEqual([]);
  });

  it("filters wrap at 390 px and sit in one row at 1280 px (screenshots)", async () => {
    mkdirSync(OUTPUT, { recursive: true });
    for (const [size, viewport] of [
      ["1280", WIDE],
      ["390", NARROW],
    ] as const) {
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, ADMIN, `/dashboard/reports?days=14&standup=${beta}&member=${ADA}&q=plan`, { page });
      await expect.poll(() => cards(page).count(), { timeout: 15_000 }).toBe(5);
      expect(await sidewaysScroll(page)).toBe(0);
      await page.screenshot({ path: join(OUTPUT, `filters-reports-${size}.png`), fullPage: true });
      await page.goto(`${web.base}/dashboard/analytics?days=14&standup=${beta}`);
      await expect.poll(() => memberRows(page).count(), { timeout: 15_000 }).toBe(2);
      await expect.poll(() => page.getByText("Drawing chart…").count(), { timeout: 15_000 }).toBe(0);
      // The browser asks for reduced motion (test/support/browser.ts): the charts draw at once, no animation to wait out.
      expect(await sidewaysScroll(page)).toBe(0);
      await page.screenshot({ path: join(OUTPUT, `filters-analytics-${size}.png`), fullPage: true });
      await page.close();
    }
    expect(problems).toEqual([]);
  });
});
