import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule } from "../support/factories.ts";
import { NARROW, WIDE } from "../support/nav-entries.ts";
import { seedTypedWeek, TYPED_QUESTIONS } from "../support/typed-answers.ts";

const TEAM = "T0QSWEB";
const ADMIN = "U0QSADMIN";
const ANONYMOUS = TYPED_QUESTIONS[7]!.text;

const sidewaysScroll = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
const card = (page: Page, text: string) => page.getByRole("article", { name: text });

describe.runIf(hasChromium)("question answers on Analytics and Reports", () => {
  let standup = "";
  let unasked = "";
  let days: string[] = [];
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Typed Rockets", installer: ADMIN });
      t.fake.addChannel(TEAM, { id: "C0TYPED", name: "typed-standup", members: [ADMIN, "BT0QSBOT"] });
      for (const [id, name] of [
        ["U0AMY", "Amy Adams"],
        ["U0BOB", "Bob Brown"],
        ["U0CID", "Cid Cruz"],
      ] as const) {
        await t.addMember(TEAM, id, { realName: name });
      }
      standup = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0TYPED", time: "09:00" });
      const today = t.clock.now().getTime();
      days = [4, 3, 2, 1, 0].map((back) => new Date(today - back * 86400_000).toISOString().slice(0, 10));
      await seedTypedWeek(t.deps.db, TEAM, standup, days);
      // A standup just given typed questions, which no run has asked yet.
      unasked = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0TYPED", time: "10:00" });
      const details = [
        { text: "What did you do?", type: "text", required: true, anonymous: false },
        { text: "Confidence?", type: "number", min: 1, max: 5, required: true, anonymous: false },
        { text: "Fair load?", type: "yes_no", required: true, anonymous: true },
      ];
      await t.deps.db.execute(
        sql`update schedules set questions = ${JSON.stringify(details.map((d) => d.text))}::jsonb,
              question_details = ${JSON.stringify(details)}::jsonb, blocker_question = null where id = ${unasked}`,
      );
    },
    watch: { console: true, otherHosts: true },
    watchEveryPage: true,
  });
  const shots = join(OUTPUT, "question-stats");
  mkdirSync(shots, { recursive: true });

  for (const [size, viewport] of [
    ["1280", WIDE],
    ["390", NARROW],
  ] as const) {
    it(`Analytics at ${size} px: option bars, the average with its trend, the anonymous question's totals`, async () => {
      const page = await web.signIn(TEAM, ADMIN, `/dashboard/analytics?days=7&standup=${standup}`);
      await page.setViewportSize(viewport);
      const panel = page.getByRole("region", { name: "Question answers" });
      await expect.poll(() => panel.isVisible(), { timeout: 15_000 }).toBe(true);
      const confidence = card(page, "How confident are you, 1–5?");
      await expect.poll(() => confidence.textContent()).toContain("3.82");
      expect(await confidence.textContent()).toContain("lowest 1, highest 5");
      expect(await confidence.textContent()).toContain("11 answers");
      expect(await confidence.getByRole("img").getAttribute("aria-label")).toMatch(/^Daily average: .*: 4, .*: 4$/);
      const area = (await card(page, "Which area?").getByRole("listitem").allTextContents()).map((s) => s.trim());
      expect(area).toEqual(["Frontend7", "Backend3", "Infra1"]);
      const pairing = await card(page, "Pairing today?").getByRole("listitem").allTextContents();
      expect(pairing).toEqual(["Yes4", "No5"]);
      const anonymous = card(page, ANONYMOUS);
      expect(await anonymous.textContent()).toContain("Anonymous");
      // Only the day whose closed run had 5 anonymous answers counts (average 3); no lowest or highest.
      expect(await anonymous.textContent()).toContain("5 answers");
      expect(await anonymous.textContent()).toContain("3 average");
      expect(await anonymous.textContent()).not.toContain("lowest");
      expect(await anonymous.textContent()).not.toContain("Not enough answers");
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, `analytics-${size}.png`), fullPage: true });
    });

    it(`Reports at ${size} px for one day: the anonymous question with 4 answers says there are not enough`, async () => {
      const day = days[0]!;
      const page = await web.signIn(TEAM, "U0AMY", `/dashboard/reports?from=${day}&to=${day}&standup=${standup}`);
      await page.setViewportSize(viewport);
      const anonymous = card(page, ANONYMOUS);
      await expect.poll(() => anonymous.isVisible(), { timeout: 15_000 }).toBe(true);
      const text = (await anonymous.textContent()) ?? "";
      expect(text.toLowerCase()).toContain("not enough answers to show");
      // Not even how many answered that day.
      expect(text).not.toContain("4 answers");
      expect(await anonymous.getByRole("img").count()).toBe(0);
      expect(await anonymous.getByRole("listitem").count()).toBe(0);
      // The typed answers on the answer cards read as their text.
      await expect.poll(() => page.getByText("Slack, GitHub").count()).toBeGreaterThan(0);
      // An anonymous question's place on every answer card says why it is empty (3 answers that day).
      expect(await page.getByText("Anonymous: shown only in the totals").count()).toBe(3);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(shots, `reports-one-day-${size}.png`), fullPage: true });
    });
  }

  it("a standup whose typed questions no run has asked yet says so instead of showing nothing", async () => {
    const page = await web.signIn(TEAM, ADMIN, `/dashboard/analytics?days=7&standup=${unasked}`);
    const panel = page.getByRole("region", { name: "Question answers" });
    await expect.poll(() => panel.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await panel.textContent()).toContain("No answers yet to 2 typed or anonymous questions in this period");
  });

  it("no panel without a standup chosen; with a member chosen the totals say they are everyone's", async () => {
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/analytics?days=7");
    await expect.poll(() => page.getByRole("heading", { name: "Members" }).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByRole("region", { name: "Question answers" }).count()).toBe(0);
    await page.goto(`${web.base}/dashboard/analytics?days=7&standup=${standup}&member=U0AMY`);
    const panel = page.getByRole("region", { name: "Question answers" });
    await expect.poll(() => panel.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await panel.textContent()).toContain("the member filter does not apply here");
    await expect.poll(() => card(page, "Which area?").textContent()).toContain("11 answers");
  });
});
