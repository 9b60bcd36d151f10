import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule, seedRun } from "../support/factories.ts";
import { NARROW, WIDE } from "../support/nav-entries.ts";

const TEAM = "T0FIGWORDS";
const ADMIN = "U0FIGADMIN";
const PEOPLE = {
  U0FIGANA: "Anastasia Worthington-Smythe",
  U0FIGBEN: "Bartholomew Featherstonehaugh",
  U0FIGCAT: "Catalina Montgomery-Ruiz",
} as const;
const AWAY = "U0FIGCAT";

/** How far an element reaches to the right, in CSS pixels of the viewport. */
const rightEdge = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.getBoundingClientRect().right);
/** The right edge of the table's farthest shown cell (hidden cells measure 0), and whether the table scrolls. */
const tableReach = (page: Page) =>
  page
    .locator(".table-wrap")
    .first()
    .evaluate((wrap) => ({
      right: Math.max(...[...wrap.querySelectorAll("th, td")].map((c) => c.getBoundingClientRect().right)),
      scrolls: wrap.scrollWidth > wrap.clientWidth,
    }));

describe.runIf(hasChromium)("figures a newcomer found confusing, in a real browser", () => {
  const today = DateTime.utc().toISODate()!;
  let ruleId = 0;
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Figure Rockets", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin" });
      for (const [id, name] of Object.entries(PEOPLE)) await t.addMember(TEAM, id, { realName: name });
      t.fake.addChannel(TEAM, {
        id: "C0FIGSTAND",
        name: "fig-standup",
        members: [ADMIN, ...Object.keys(PEOPLE), "B0FIGBOT"],
      });
      const scheduleId = await createSchedule(t.deps.db, t.clock, {
        teamId: TEAM,
        channelId: "C0FIGSTAND",
        time: "09:00",
      });
      // Earlier days for the analytics table, today's run: three asked, one answered about the roadmap, Cat away.
      for (const [n, text] of [
        [2, "Drafted the roadmap"],
        [1, "Reviewed the roadmap"],
      ] as const) {
        await seedRun(t.deps.db, {
          teamId: TEAM,
          scheduleId,
          date: DateTime.utc().minus({ days: n }).toISODate()!,
          asked: [ADMIN, ...Object.keys(PEOPLE)],
          answers: {
            U0FIGANA: { answers: [text, "Planning", "none"], mood: "🙂" },
            U0FIGBEN: { answers: ["Fixed the build", "Tests", "Waiting on keys"], mood: "😕" },
          },
        });
      }
      await seedRun(t.deps.db, {
        teamId: TEAM,
        scheduleId,
        date: today,
        asked: [ADMIN, "U0FIGANA", "U0FIGBEN"],
        answers: { U0FIGANA: { answers: ["Roadmap review", "Demo", "none"], mood: "🙂" } },
      });
      await t.deps.db.execute(
        sql`insert into run_participants (run_id, user_id, team_id, status, created_at)
            select id, ${AWAY}, ${TEAM}, 'away', now() from standup_runs
            where schedule_id = ${scheduleId} and local_date = ${today}`,
      );
      await t.deps.db.execute(
        sql`insert into time_off (team_id, user_id, start_date, end_date, reason, created_by, created_at, updated_at)
            values (${TEAM}, ${AWAY}, ${today}, ${DateTime.utc().plus({ days: 9 }).toISODate()!},
                    'Family visit abroad for the wedding', ${ADMIN}, now(), now())`,
      );
      const [rule] = await rows<{ id: number }>(
        t.deps.db,
        sql`insert into rules (team_id, trigger, action, action_target, created_by, created_at, updated_at)
            values (${TEAM}, 'blocker_reported', 'post_to_channel', 'C0FIGSTAND', ${ADMIN}, now(), now())
            returning id`,
      );
      ruleId = Number(rule!.id);
      const [run] = await rows<{ id: number }>(
        t.deps.db,
        sql`select id::int as id from standup_runs where schedule_id = ${scheduleId} and local_date = ${today}`,
      );
      for (const [n, outcome] of [
        [1, "posted"],
        [2, "posted"],
        [3, "blocker_cleared"],
      ] as const) {
        await t.deps.db.execute(
          sql`insert into rule_firings (team_id, rule_id, run_id, response_id, outcome, created_at, done_at)
              values (${TEAM}, ${ruleId}, ${run!.id}, ${n}, ${outcome}, now(), ${`${today}T0${n}:30:00Z`})`,
        );
      }
    },
    watch: { console: true },
    // The rule's firing time reads the same on every machine.
    locale: "en-GB",
    timezoneId: "Europe/London",
  });
  const { problems } = web;

  async function at(path: string, viewport: { width: number; height: number }, ready: string): Promise<Page> {
    const page = await web.newPage();
    await page.setViewportSize(viewport);
    await web.signIn(TEAM, ADMIN, `/dashboard${path}`, { page });
    await expect.poll(() => page.getByText(ready).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    return page;
  }

  it("the Overview's Answered today counts the people asked today, as the Today card does", async () => {
    const page = await at("", WIDE, "1 of 3 members answered");
    const card = page.locator(".stat", { hasText: "Answered today" });
    await expect.poll(() => card.textContent()).toContain("of 3 asked today");
    expect(await card.textContent()).not.toContain("members");
  });

  it("the Standups card explains the last run: the Today card's words, who was away, why 4 people but 3 asked", async () => {
    const page = await at("/standups", WIDE, "1 of 3 members answered");
    const card = page.locator(".schedule").first();
    const text = (await card.textContent()) ?? "";
    expect(text).toContain("1 of 3 members answered · 1 away");
    expect(text).toContain("4 people in the channel now; people away are not asked");
    expect(text).not.toContain("0 of 0");
  });

  it("Reports with a search tell the matching answers apart from the period's participation", async () => {
    const page = await at("/reports?q=roadmap&days=7", WIDE, "match “roadmap”");
    const summary = (await page.locator(".summary").textContent()) ?? "";
    expect(summary).toContain("3 answers match “roadmap”, from 1 member · participation in this period: ");
    expect(summary).toMatch(/\d+% \(5 of 11 asked\)/);
  });

  it("each rule says when it last fired and how often (a firing that posted nothing does not count)", async () => {
    const page = await at("/rules", WIDE, "Last fired");
    const fired = (await page.locator(".rule-fired").first().textContent()) ?? "";
    expect(fired).toMatch(/^Last fired \d{1,2} \w{3} \d{4}, 02:30 London · 2 times$/);
    expect(ruleId).toBeGreaterThan(0);
  });

  it("at 390 px the Time off page's Remove button, the Rules page's Delete and the Analytics table's last column are on screen", async () => {
    const timeOff = await at("/time-off", NARROW, "Family visit abroad");
    expect(await rightEdge(timeOff, "tbody button:has-text('Remove')")).toBeLessThanOrEqual(NARROW.width);
    expect(await tableReach(timeOff)).toMatchObject({ scrolls: false });
    expect((await tableReach(timeOff)).right).toBeLessThanOrEqual(NARROW.width);
    // The member's name still shows, above the days.
    expect(await timeOff.locator("tbody strong.show-narrow").first().isVisible()).toBe(true);
    const rules = await at("/rules", NARROW, "Last fired");
    expect(await rightEdge(rules, "tbody button:has-text('Delete')")).toBeLessThanOrEqual(NARROW.width);
    expect(await tableReach(rules)).toMatchObject({ scrolls: false });
    const analytics = await at("/analytics", NARROW, "Blockers reported");
    expect(await tableReach(analytics)).toMatchObject({ scrolls: false });
    expect((await tableReach(analytics)).right).toBeLessThanOrEqual(NARROW.width);
    // Blockers reported (and the streak) move under the name, on screen.
    const meta = analytics.locator("tbody .member-meta", { hasText: "blocker" }).first();
    expect(await meta.isVisible()).toBe(true);
    expect(await meta.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(NARROW.width);
    expect(problems).toEqual([]);
  });

  // Twelve page loads: a minute, like the other files' page-by-page walks, not the default 30 s.
  it("takes screenshots of the six pages at both widths (saved for review)", async () => {
    mkdirSync(OUTPUT, { recursive: true });
    // Signed in once: each page is then loaded afresh at each width (not resized), without a new sign-in each time.
    const page = await at("", WIDE, "asked today");
    for (const [name, path, ready] of [
      ["overview", "", "asked today"],
      ["standups", "/standups", "1 away"],
      ["reports-search", "/reports?q=roadmap&days=7", "match “roadmap”"],
      ["time-off", "/time-off", "Family visit abroad"],
      ["analytics", "/analytics", "Blockers reported"],
      ["rules", "/rules", "Last fired"],
    ] as const) {
      for (const [size, viewport] of [
        ["1280", WIDE],
        ["390", NARROW],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.goto(`${web.base}/dashboard${path}`);
        await expect.poll(() => page.getByText(ready).count(), { timeout: 15_000 }).toBeGreaterThan(0);
        await expect.poll(() => page.getByText("Drawing chart…").count(), { timeout: 15_000 }).toBe(0);
        await page.screenshot({ path: join(OUTPUT, `figure-words-${name}-${size}.png`), fullPage: true });
      }
    }
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});
