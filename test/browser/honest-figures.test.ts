import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { timeOff } from "../../src/db/schema.ts";
import { seedBlocker } from "../support/blockers.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule, seedRun } from "../support/factories.ts";
import { memberTimezoneTeam } from "../support/member-timezone.ts";

const TEAM = "T0HON";
const ADMIN = "U0HONADMIN";
const PEOPLE = {
  U0AIKO: ["Aiko", "Asia/Tokyo"],
  U0PRIYA: ["Priya", "Asia/Kolkata"],
  U0ANA: ["Ana", "Europe/Berlin"],
  U0LUCIA: ["Lucía", "Europe/Madrid"],
  U0TOM: ["Tom", "Europe/London"],
  U0MAYA: ["Maya", "America/New_York"],
  U0ETHAN: ["Ethan", "America/Los_Angeles"],
} as const;
const WIDE = { width: 1280, height: 900 };
const NARROW = { width: 390, height: 844 };

/**
 * The overview of a standup that asks each person at 09:00 their time, seen on Tuesday 1 December 2026 at 07:00 UTC
 * after the real scheduler ran: Tokyo and Kolkata asked, four people later today, Lucía away on time off; blockers
 * reported over several days, of which one is still active.
 */
describe.runIf(hasChromium)("honest figures: who is asked when, who is away, what an active blocker is", () => {
  // A British English browser: the clock reads 09:00 (the dashboard follows the viewer's locale).
  const web = useBrowser({
    locale: "en-GB",
    seed: async (t) => {
      t.clock.set("2026-11-30T12:00:00Z"); // Monday
      const team = await memberTimezoneTeam(
        t,
        TEAM,
        Object.fromEntries(Object.entries(PEOPLE).map(([id, [, tz]]) => [id, tz])),
        { time: "09:00", days: "mon,tue,wed,thu,fri" },
      );
      for (const [id, [name, tz]] of Object.entries(PEOPLE)) {
        t.fake.addUser(TEAM, { id, name: name.toLowerCase(), real_name: name, tz });
        await t.deps.db.execute(
          sql`update members set real_name = ${name} where team_id = ${TEAM} and user_id = ${id}`,
        );
      }
      await t.deps.db.execute(sql`update schedules set name = 'Global standup' where id = ${team.scheduleId}`);
      const answer = (blocker: string) => ({
        answers: ["Earlier work", "More work", blocker] as [string, string, string],
      });
      const everyone = ["U0AIKO", "U0PRIYA", "U0ANA", "U0TOM", "U0MAYA", "U0ETHAN"];
      // Friday: three people report a blocker. Monday: two (Tom still, Aiko); Ana and Priya are unblocked.
      const history: [string, Record<string, string>][] = [
        ["2026-11-27", { U0TOM: "CI is red", U0ANA: "Review backlog", U0PRIYA: "Disk full" }],
        ["2026-11-30", { U0TOM: "CI is red", U0AIKO: "Waiting on API keys" }],
      ];
      for (const [date, blocked] of history) {
        await seedRun(t.deps.db, {
          teamId: TEAM,
          scheduleId: team.scheduleId,
          date,
          asked: everyone,
          answers: Object.fromEntries(everyone.map((id) => [id, answer(blocked[id] ?? "none")])),
        });
      }
      // The blocker items those answers leave (the Slack side tracks them as answers come): Tom's is open since
      // Friday, Ana's and Priya's were resolved by Monday's "none", Aiko's Monday one is open until she answers.
      const item = (userId: string, text: string, openedDate: string, lastDate: string, resolvedAt?: string) =>
        seedBlocker(t.deps.db, {
          teamId: TEAM,
          scheduleId: team.scheduleId,
          userId,
          text,
          openedDate,
          lastDate,
          ...(resolvedAt ? { resolved: { by: userId, at: resolvedAt, via: "answer" } } : {}),
        });
      await item("U0TOM", "CI is red", "2026-11-27", "2026-11-30");
      await item("U0ANA", "Review backlog", "2026-11-27", "2026-11-27", "2026-11-30T09:10:00Z");
      await item("U0PRIYA", "Disk full", "2026-11-27", "2026-11-27", "2026-11-30T09:10:00Z");
      await item("U0AIKO", "Waiting on API keys", "2026-11-30", "2026-11-30");
      // Lucía is off all week: the run marks her away and never asks her.
      await t.deps.db.insert(timeOff).values({
        teamId: TEAM,
        userId: "U0LUCIA",
        startDate: "2026-11-30",
        endDate: "2026-12-04",
        createdBy: "U0LUCIA",
        createdAt: t.clock.now(),
        updatedAt: t.clock.now(),
      });
      // The real scheduler: Tuesday's run starts when 09:00 comes anywhere, then asks Tokyo and Kolkata.
      await team.tickAt("2026-11-30T19:00:10Z", "2026-11-30T19:00:40Z");
      // A second one, "Late sync" at 17:00 each person's time: started (17:00 in UTC+14), nobody's time yet.
      const late = await createSchedule(t.deps.db, t.clock, {
        teamId: TEAM,
        channelId: team.channelId,
        time: "17:00",
        tz: "Europe/Berlin",
        days: "mon,tue,wed,thu,fri",
      });
      await t.deps.db.execute(
        sql`update schedules set name = 'Late sync', ask_in_member_timezone = true where id = ${late}`,
      );
      await team.tickAt("2026-12-01T00:00:10Z", "2026-12-01T00:00:40Z", "2026-12-01T03:00:10Z", "2026-12-01T03:00:40Z");
      await team.tickAt("2026-12-01T03:30:10Z", "2026-12-01T03:30:40Z");
      const run = (await team.runs()).find((r) => r.local_date === "2026-12-01");
      t.clock.set("2026-12-01T04:00:00Z");
      // Aiko is unblocked today: her Monday blocker is no longer active.
      const res = await team.submit("U0AIKO", run!.id, ["API keys came", "Integrate", "none"]);
      if (res.statusCode !== 200 || res.body) throw new Error(`submit: ${res.statusCode} ${res.body}`);
      await t.deps.queue.drain();
      t.clock.set("2026-12-01T07:00:00Z");
    },
    watch: { console: true },
    timeout: 180_000,
  });

  for (const [size, viewport] of [
    ["1280", WIDE],
    ["390", NARROW],
  ] as const) {
    it(`at ${size} px the overview says who is asked when, who is away, and what an active blocker is`, async () => {
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, ADMIN, undefined, { page });
      const card = page
        .locator("section.standup-today")
        .filter({ has: page.getByRole("heading", { name: "Global standup" }) });
      await expect.poll(() => card.getByText("1 of 2 members answered so far").count(), { timeout: 15_000 }).toBe(1);
      expect(await card.locator(".ask-plan").textContent()).toBe(
        "Asks each person at 09:00 their time: 2 asked so far, 4 later today (next: Ana at 09:00 Berlin)",
      );
      const groups = await card.locator(".not-answered").allTextContents();
      expect(groups).toEqual([
        "Not answered yet: Priya",
        "Asked later today: Ana at 09:00 Berlin, Tom at 09:00 London, Maya at 09:00 New York, Ethan at 09:00 Los Angeles",
        "Away: Lucía (time off until Fri 4 Dec)",
      ]);
      // Nobody on time off or not asked yet is called "not answered".
      expect(groups[0]).not.toMatch(/Lucía|Ana|Tom/);
      // Late sync today, before anyone's time: no "0 of 0 answered", and nobody listed as not answered.
      const late = page
        .locator("section.standup-today")
        .filter({ has: page.getByRole("heading", { name: "Late sync" }) });
      // Newest run first: today's, then Monday's (still open in Los Angeles).
      const [today, monday] = [late.nth(0), late.nth(1)];
      expect(await today.locator("header.day-head > span.muted").textContent()).toBe("Nobody asked yet");
      expect(await today.locator(".ask-plan").textContent()).toBe(
        "Asks each person at 17:00 their time: 0 asked so far, 6 later today (next: Aiko at 17:00 Tokyo)",
      );
      expect(await today.locator(".not-answered").allTextContents()).toEqual([
        "Asked later today: Aiko at 17:00 Tokyo, Priya at 17:00 Kolkata, Ana at 17:00 Berlin, Tom at 17:00 London, " +
          "Maya at 17:00 New York, Ethan at 17:00 Los Angeles",
        "Away: Lucía (time off until Fri 4 Dec)",
      ]);
      // Monday's, created at 12:00 UTC: only New York and Los Angeles still had 17:00 to come. Maya's own day is
      // over (did not answer), Ethan's is not (not answered yet), the rest were never asked.
      expect(await monday.locator(".not-answered").allTextContents()).toEqual([
        "Not answered yet: Ethan",
        "Did not answer: Maya",
        "Away: Lucía (time off until Fri 4 Dec)",
        "Not asked (their time had passed): Aiko, Ana, Priya, Tom",
      ]);

      // Active blockers: open blocker items (Tom's; Aiko's was resolved by her answer); the card says so, for screen
      // readers too.
      const value = page.locator(".stat").filter({ hasText: "Active blockers" }).locator(".stat-value");
      await expect.poll(() => value.textContent(), { timeout: 10_000 }).toBe("1");
      const help = await value.getAttribute("aria-describedby");
      expect(await page.locator(`[id="${help}"]`).textContent()).toBe("open blockers: reported and not resolved yet");
      expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
      mkdirSync(OUTPUT, { recursive: true });
      await expect.poll(() => page.getByText("Drawing chart…").count(), { timeout: 10_000 }).toBe(0);
      await page.screenshot({ path: join(OUTPUT, `honest-overview-${size}.png`), fullPage: true });

      // Reports: the days count people who reported a blocker; the summary's active blockers are defined beside it.
      await page.goto(`${web.base}/dashboard/reports?days=7`);
      const summary = page.locator("p.summary");
      await expect.poll(() => summary.getByText("1 active blocker", { exact: true }).count()).toBe(1);
      const summaryHelp = await summary.getByText("1 active blocker", { exact: true }).getAttribute("aria-describedby");
      expect(await page.locator(`[id="${summaryHelp}"]`).textContent()).toContain(
        "Active blockers: open blockers (reported and not resolved yet) that were reported in this range.",
      );
      const dayHead = (id: string) => page.locator(`[aria-labelledby="day-${id}"] > summary`);
      expect(await dayHead("2026-11-27").textContent()).toContain("3 people reported a blocker");
      expect(await dayHead("2026-11-30").textContent()).toContain("2 people reported a blocker");
      expect(await dayHead("2026-12-01").textContent()).not.toContain("blocker");
      await page.screenshot({ path: join(OUTPUT, `honest-reports-${size}.png`), fullPage: true });
      await page.close();
    });
  }

  it("no console errors or failed requests on the way", () => {
    expect(web.problems).toEqual([]);
  });
});
