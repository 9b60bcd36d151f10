import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { formatDayRange } from "../../web/src/lib/datetime.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";

const TEAM = "T0OFFWEB";
const ADMIN = "U0OFFWEBADMIN";
const ANA = "U0OFFWEBANA";

describe.runIf(hasChromium)("the Time off page in a real browser", () => {
  // The server's clock is the real one (the browser drops a session cookie that expired by its own clock).
  const day = (n: number) => DateTime.utc().plus({ days: n }).toISODate()!;
  // The page says a range in words, in the browser's locale: "21 – 25 Dec 2026".
  const range = (page: Page, from: number, to: number) =>
    page
      .evaluate(() => Intl.DateTimeFormat().resolvedOptions().locale)
      .then((locale) => formatDayRange(day(from), day(to), { locale }));
  const stored = () =>
    rows<{ user_id: string; start_date: string; end_date: string; reason: string; created_by: string }>(
      web.t.deps.db,
      sql`select user_id, start_date::text, end_date::text, reason, created_by from time_off where team_id = ${TEAM}
          order by user_id, start_date`,
    );

  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Away Rockets", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin" });
      await t.addMember(TEAM, ANA, { realName: "Ana Away" });
    },
  });
  const { problems } = web;

  async function signedIn(userId: string): Promise<Page> {
    const page = await web.signIn(TEAM, userId);
    await page.getByRole("link", { name: "Time off", exact: true }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Add time off" }).count(), { timeout: 10_000 }).toBe(1);
    return page;
  }

  it("an admin adds time off for a member and sees everyone's; a wrong range shows the server's reason", async () => {
    const page = await signedIn(ADMIN);
    await page.getByLabel("First day away").fill(day(12));
    await page.getByLabel("Last day away").fill(day(10));
    await page.getByRole("button", { name: "Add time off" }).click();
    await expect
      .poll(() => page.getByText("end_date: must be on or after start_date").count(), { timeout: 10_000 })
      .toBe(1);

    await expect.poll(() => page.locator("#time-off-member option").count(), { timeout: 10_000 }).toBe(3);
    await page.getByLabel("Member").selectOption(ANA);
    await page.getByLabel("First day away").fill(day(10));
    await page.getByLabel("Last day away").fill(day(12));
    await page.getByLabel("Reason (optional)").fill("Family visit");
    await page.getByRole("button", { name: "Add time off" }).click();
    await expect
      .poll(() => page.getByRole("cell", { name: "Ana Away", exact: true }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.getByRole("cell", { name: await range(page, 10, 12), exact: true }).count()).toBe(1);
    expect(await stored()).toEqual([
      { user_id: ANA, start_date: day(10), end_date: day(12), reason: "Family visit", created_by: ADMIN },
    ]);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "time-off-admin.png"), fullPage: true });
    await page.close();
  });

  it("a member sees only their own, adds the next days (merged into one range) and removes it", async () => {
    await web.t.deps.db.execute(
      sql`insert into time_off (team_id, user_id, start_date, end_date, reason, created_by, created_at, updated_at)
          values (${TEAM}, ${ADMIN}, ${day(3)}, ${day(4)}, '', ${ADMIN}, now(), now())`,
    );
    const page = await signedIn(ANA);
    await expect
      .poll(() => page.getByRole("cell", { name: "Family visit", exact: true }).count(), { timeout: 10_000 })
      .toBe(1);
    // No member column or choice, and not the admin's range.
    expect(await page.getByLabel("Member").count()).toBe(0);
    expect(await page.getByRole("columnheader", { name: "Member" }).count()).toBe(0);
    expect(await page.getByRole("row").count()).toBe(2);

    await page.getByLabel("First day away").fill(day(13));
    await page.getByRole("button", { name: "Add time off" }).click();
    const merged = await range(page, 10, 13);
    await expect.poll(() => page.getByRole("cell", { name: merged, exact: true }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByText("ranges next to each other are merged").count()).toBe(1);
    expect((await stored()).filter((r) => r.user_id === ANA).map((r) => [r.start_date, r.end_date])).toEqual([
      [day(10), day(13)],
    ]);
    await page.screenshot({ path: join(OUTPUT, "time-off-member.png"), fullPage: true });

    await page.getByRole("button", { name: `Remove time off ${merged}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove time off" }).click();
    await expect.poll(() => page.getByText("No time off planned").count(), { timeout: 10_000 }).toBe(1);
    expect((await stored()).map((r) => r.user_id)).toEqual([ADMIN]);
    await page.close();
    expect(problems).toEqual([]);
  });
});
