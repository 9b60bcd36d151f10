import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { formatDayRange, standupTimeParts } from "../../web/src/lib/datetime.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule } from "../support/factories.ts";

const TEAM = "T0TZWEB";
const ADMIN = "U0TZWEBADMIN";
const ANA = "U0TZWEBANA";
// The viewer sits in New York and reads British English; the standup runs on Berlin's clock.
const VIEWER = { locale: "en-GB", zone: "America/New_York" };
const WIDTHS = [
  ["1280", { width: 1280, height: 900 }],
  ["390", { width: 390, height: 844 }],
] as const;

describe.runIf(hasChromium)("dates and times in the viewer's zone, in a real browser", () => {
  const day = (n: number) => DateTime.utc().plus({ days: n }).toISODate()!;
  const web = useBrowser({
    locale: VIEWER.locale,
    timezoneId: VIEWER.zone,
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Zone Rockets", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin" });
      await t.addMember(TEAM, ANA, { realName: "Ana Away" });
      t.fake.addChannel(TEAM, { id: "C0TZWEB", name: "berlin-team", members: [ADMIN, ANA] });
      await createSchedule(t.deps.db, t.clock, {
        teamId: TEAM,
        channelId: "C0TZWEB",
        time: "09:30",
        tz: "Europe/Berlin",
        days: "mon,tue,wed,thu,fri,sat,sun",
      });
      await t.deps.db.execute(
        sql`insert into time_off (team_id, user_id, start_date, end_date, reason, created_by, created_at, updated_at)
            values (${TEAM}, ${ANA}, ${day(20)}, ${day(60)}, 'Sabbatical', ${ADMIN}, now(), now())`,
      );
    },
  });
  const { problems } = web;

  async function open(path: string, width: (typeof WIDTHS)[number][1]): Promise<Page> {
    const page = await web.signIn(TEAM, ADMIN, path);
    await page.setViewportSize(width);
    return page;
  }

  it("Standups say the standup's time in Berlin with the viewer's New York time beside it", async () => {
    // The browser's clock is the real one: today in Berlin decides the difference (5 or 6 hours).
    const time = standupTimeParts("09:30", "Europe/Berlin", VIEWER);
    expect(time.yours).toMatch(/^0\d:30 your time$/);
    mkdirSync(OUTPUT, { recursive: true });
    for (const [name, width] of WIDTHS) {
      const page = await open("/dashboard/standups", width);
      const card = page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: "#berlin-team standup" }) });
      await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(1);
      // Polled: on a busy machine the card can render before the channel names arrive.
      await expect
        .poll(() => card.locator(".schedule-when").textContent(), { timeout: 10_000 })
        .toBe(`#berlin-team · Every day at ${time.standup} · ${time.yours}`);
      const next = card.locator(".schedule-facts dd").first();
      await expect
        .poll(() => next.textContent(), { timeout: 10_000 })
        .toMatch(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}, 09:30 Berlin · 0\d:30 your time$/);
      await page.screenshot({ path: join(OUTPUT, `time-zones-standups-${name}.png`), fullPage: true });

      await card.getByRole("link", { name: /^Edit standup/ }).click();
      await expect
        .poll(() => page.locator("#timezone-help").textContent(), { timeout: 10_000 })
        .toContain(`It asks at ${time.standup} · ${time.yours} today.`);
      await page.screenshot({ path: join(OUTPUT, `time-zones-editor-${name}.png`), fullPage: true });
      await page.close();
    }
  });

  it("Time off shows its range in words, the Members page its next sync in the viewer's zone", async () => {
    const range = formatDayRange(day(20), day(60), VIEWER);
    expect(range).not.toContain(day(20));
    for (const [name, width] of WIDTHS) {
      const page = await open("/dashboard/time-off", width);
      await expect
        // At 390 px the cell also names the member above the days: the range is read from the table's text.
        .poll(() => page.locator("tbody").first().textContent(), { timeout: 10_000 })
        .toContain(range);
      await page.screenshot({ path: join(OUTPUT, `time-zones-time-off-${name}.png`), fullPage: true });
      await page.close();
    }
    const page = await open("/dashboard/members", WIDTHS[0][1]);
    await expect
      .poll(() => page.locator("section.member-sync .field-help").textContent(), { timeout: 10_000 })
      .toMatch(/\(next \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d New York\)\.$/);
    await page.close();
    expect(problems).toEqual([]);
  });
});
