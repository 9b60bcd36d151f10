import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { timeOff } from "../../src/db/schema.ts";
import { hasChromium, useBrowser } from "../support/browser.ts";
import { addHoliday, createSchedule, seedRun } from "../support/factories.ts";

const TEAM = "T0MEMPG";
const ADMIN = "U0MEMPGADMIN";
const MEMBER = "U0MEMPGMAYA";
const OTHER = "U0MEMPGLEO";

/** Every page a member's navigation offers, as the dashboard addresses them. */
const MEMBER_PAGES = [
  "/",
  "/standups",
  "/reports",
  "/analytics",
  "/kudos",
  "/time-off",
  "/celebrations",
  "/calendar",
  "/ai-access",
  "/profile",
];
/** Admin pages a member may still open by address: they say so without asking the server for admin data. */
const ADMIN_PAGES = ["/members", "/rules", "/webhooks", "/feed", "/email", "/profiles", "/standups/new"];

describe.runIf(hasChromium)("a member's dashboard calls only what a member may use", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Member Rockets", installer: ADMIN });
      await t.addMember(TEAM, MEMBER, { realName: "Maya Okafor" });
      await t.addMember(TEAM, OTHER, { realName: "Leo Fernández" });
      t.fake.addChannel(TEAM, { id: "C0MEMPG", name: "team-standup", members: [ADMIN, MEMBER, OTHER] });
      const schedule = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0MEMPG", time: "09:00" });
      const yesterday = new Date(Date.now() - 86400_000).toISOString().slice(0, 10);
      await seedRun(t.deps.db, {
        teamId: TEAM,
        scheduleId: schedule,
        date: yesterday,
        asked: [MEMBER, OTHER],
        answers: { [MEMBER]: { answers: ["Wrote the docs", "Review", "blocked on access"] } },
      });
      // Something on every page: the member's own time off and a holiday.
      const inDays = (n: number) => new Date(Date.now() + n * 86400_000).toISOString().slice(0, 10);
      await t.deps.db.insert(timeOff).values({
        teamId: TEAM,
        userId: MEMBER,
        startDate: inDays(3),
        endDate: inDays(4),
        reason: "Dentist",
        createdBy: MEMBER,
        createdAt: t.clock.now(),
        updatedAt: t.clock.now(),
      });
      await addHoliday(t.deps.db, TEAM, inDays(6), "Founders' Day");
    },
    args: ["--disable-sync"],
    watch: { console: true },
    timeout: 180_000,
  });
  const { problems } = web;

  /** API requests a page made that the server refused (4xx/5xx), as "status path". */
  function failedCalls(page: Page): string[] {
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.url().includes("/dashboard/api/") && r.status() >= 400)
        failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    return failed;
  }

  /** Opens a page and waits for its queries; failed calls seen meanwhile are tagged with the page. */
  async function visit(page: Page, path: string, failed: string[]): Promise<void> {
    const before = failed.length;
    await page.goto(`${web.base}/dashboard${path === "/" ? "" : path}`);
    await page.locator("main h1").first().waitFor({ timeout: 15_000 });
    // Let every query the page starts answer (a refused one would show up as a failed call).
    await page.waitForLoadState("networkidle");
    for (let i = before; i < failed.length; i++) failed[i] = `${path}: ${failed[i]}`;
  }

  it("opens every member page with no failed API call and no console error", async () => {
    const page = await web.signIn(TEAM, MEMBER);
    const failed = failedCalls(page);
    problems.length = 0;
    for (const path of MEMBER_PAGES) await visit(page, path, failed);
    expect(failed).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("opens the admin pages by address: they say they are for admins, and call nothing admin-only", async () => {
    const page = await web.signIn(TEAM, MEMBER);
    const failed = failedCalls(page);
    problems.length = 0;
    for (const path of ADMIN_PAGES) await visit(page, path, failed);
    expect(failed).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
