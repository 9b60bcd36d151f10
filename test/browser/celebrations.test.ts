import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { setProfile } from "../support/celebrations.ts";

const TEAM = "T0CELWEB";
const ADMIN = "U0CWADMIN";
const CELEB = "U0CWCELEB";
const MEMBER = "U0CWMEMBER";
const BDAY = "U0CWBDAY";
const BOT = "B0CELWEBBOT";

/** A holiday's cell: its name, then whether it skips standups (the badge shares the cell, to fit 390 px). */
const holidayCell = (scope: Pick<Page, "getByRole">, name: string) =>
  scope.getByRole("cell", {
    name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} (Skips standups|Celebrations only)$`),
  });

describe.runIf(hasChromium)("the Celebrations and Calendar pages in a real browser", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Party People", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin" });
      await t.addMember(TEAM, CELEB, { realName: "Cy Celebrations" });
      await t.addMember(TEAM, MEMBER, { realName: "Mo Member" });
      await t.addMember(TEAM, BDAY, { realName: "Bea Birthday" });
      for (const u of [ADMIN, CELEB, MEMBER, BDAY])
        t.fake.addUser(TEAM, { id: u, name: u.toLowerCase(), real_name: u });
      // Bea's birthday is in three days (UTC); her start date is set, so she is not asked for dates.
      const soon = new Date(Date.now() + 3 * 86_400_000);
      const md = `${String(soon.getUTCMonth() + 1).padStart(2, "0")}-${String(soon.getUTCDate()).padStart(2, "0")}`;
      await setProfile(t.deps.db, TEAM, BDAY, { birthday: md, startDate: "2020-01-15" });
      t.fake.addChannel(TEAM, { id: "C0CWPARTY", name: "party", members: [ADMIN, BOT] });
    },
  });
  const { problems } = web;

  const signedIn = (userId: string) => web.signIn(TEAM, userId);

  const settings = async () =>
    (
      await rows<{
        channel_id: string | null;
        post_time: string;
        admins: string[];
        timezone: string;
        working_days: string;
      }>(
        web.t.deps.db,
        sql`select s.channel_id, s.post_time, s.admins, c.timezone, c.working_days
            from celebration_settings s join workspace_calendars c using (team_id) where s.team_id = ${TEAM}`,
      )
    )[0];

  it("an admin saves the settings, sees who is celebrated next and asks for missing dates", async () => {
    const page = await signedIn(ADMIN);
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Celebrations" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Celebrations" }).count(), { timeout: 10_000 })
      .toBe(1);
    // The channel by its name: the picker searches names and shows "#party", never the id.
    const channel = page.locator("#celebrations-channel");
    await channel.click();
    await expect.poll(() => page.getByRole("option", { name: "#party" }).count(), { timeout: 10_000 }).toBe(1);
    await channel.fill("par");
    await channel.press("Enter");
    expect(await channel.inputValue()).toBe("#party");
    await page.locator("#celebrations-timezone").fill("Europe/Paris");
    await page.locator("#celebrations-day-fri").uncheck();
    await page.locator("#celebrations-time").fill("10:15");
    // Celebrations admins by name: "cy" finds Cy Celebrations; the chip names him, the server gets his id.
    await page.locator("#celebrations-admins").fill("cy");
    await page.getByRole("option", { name: /Cy Celebrations/ }).click();
    await expect
      .poll(() => page.getByRole("list", { name: "Chosen people" }).getByRole("button").allInnerTexts())
      .toEqual(["×"]);
    expect(await page.getByRole("button", { name: "Remove Cy Celebrations" }).count()).toBe(1);
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.getByText("Celebrations settings saved.").count(), { timeout: 10_000 }).toBe(1);
    expect(await settings()).toEqual({
      channel_id: "C0CWPARTY",
      post_time: "10:15",
      admins: [CELEB],
      timezone: "Europe/Paris",
      working_days: "mon,tue,wed,thu",
    });
    // A bad timezone is the server's 400, shown as it says.
    await page.locator("#celebrations-timezone").fill("Mars/Olympus");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.getByText(/timezone must be an IANA timezone/).count(), { timeout: 10_000 }).toBe(1);

    const upcoming = page
      .getByRole("region", { name: "Next 30 days" })
      .or(page.locator("section", { hasText: "Next 30 days" }));
    await expect.poll(() => upcoming.getByText("Bea Birthday").count(), { timeout: 10_000 }).toBe(1);
    expect(await upcoming.getByRole("cell", { name: "Birthday", exact: true }).count()).toBe(1);
    // A post still to come is "Posts on …", never "Posted".
    expect(await upcoming.getByRole("cell", { name: /^Posts on / }).count()).toBe(1);
    expect(await upcoming.getByText(/^Posted /).count()).toBe(0);

    // Everyone active but Bea is missing dates: Ada, Cy and Mo.
    await expect.poll(() => page.getByText("3 people are missing a birthday or a start date.").count()).toBe(1);
    await page.getByRole("button", { name: "Ask them in Slack" }).click();
    await expect.poll(() => page.getByText("Asked 3 people.").count(), { timeout: 10_000 }).toBe(1);
    await web.t.deps.queue.drain();
    for (const u of [ADMIN, CELEB, MEMBER]) expect(web.t.fake.messages(web.t.fake.dmFor(TEAM, u)), u).toHaveLength(1);
    await expect.poll(() => page.getByText(/Nobody to ask right now/).count(), { timeout: 10_000 }).toBe(1);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "celebrations.png"), fullPage: true });
    await page.close();
    expect(problems).toEqual([]);
  });

  it("a Celebrations admin saves the calendar's days and keeps Celebrations-only holidays, not standup ones", async () => {
    await web.t.deps.db.execute(
      sql`insert into holidays (team_id, date, name) values (${TEAM}, '2027-01-01', 'New Year')`,
    );
    const page = await signedIn(CELEB); // a Celebrations admin, not a workspace admin
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Calendar" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Calendar" }).count(), { timeout: 10_000 })
      .toBe(1);
    await expect.poll(() => page.locator("#calendar-timezone").inputValue(), { timeout: 10_000 }).toBe("Europe/Paris");
    await page.locator("#calendar-day-fri").check();
    await page.getByRole("button", { name: "Save calendar" }).click();
    await expect.poll(() => page.getByText("Calendar saved.").count(), { timeout: 10_000 }).toBe(1);
    expect((await settings())?.working_days).toBe("mon,tue,wed,thu,fri");

    const list = page.getByRole("region", { name: "Holidays", exact: true });
    const row = (name: string) => list.getByRole("row").filter({ hasText: name });
    await expect.poll(() => row("New Year").count(), { timeout: 10_000 }).toBe(1);
    expect(await row("New Year").getByText("Skips standups").count()).toBe(1);
    expect(await list.getByText("The holidays you add move Celebrations only").count()).toBe(1);
    // A holiday standups skip is a workspace admin's to remove: no delete button, renaming is fine.
    expect(await page.getByRole("button", { name: "Delete New Year" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Rename New Year" }).count()).toBe(1);

    await page.locator("#holiday-date").fill("2027-03-17");
    await page.locator("#holiday-name").fill("Team party");
    await page.getByRole("button", { name: "Add or rename" }).click();
    await expect.poll(() => row("Team party").count(), { timeout: 10_000 }).toBe(1);
    expect(await row("Team party").getByText("Celebrations only").count()).toBe(1);
    const flags = () =>
      rows<{ date: string; skips_standups: boolean }>(
        web.t.deps.db,
        sql`select date::text, skips_standups from holidays where team_id = ${TEAM} order by date`,
      );
    expect(await flags()).toEqual([
      { date: "2027-01-01", skips_standups: true },
      { date: "2027-03-17", skips_standups: false },
    ]);

    // The import is theirs too; its rows say they move Celebrations only.
    await page.locator("#holiday-csv").fill("date,name\n2027-04-01,Fools\n");
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    await expect
      .poll(() => page.getByText("1 new · 0 renamed · 0 unchanged · 0 invalid").count(), { timeout: 10_000 })
      .toBe(1);
    const preview = page.getByRole("table", { name: "Import preview" });
    expect(await preview.getByText("Celebrations only").count()).toBe(1);
    await page.getByRole("button", { name: "Import 1" }).click();
    await expect.poll(() => page.getByText("Imported: 1 holiday saved.").count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => row("Fools").count(), { timeout: 10_000 }).toBe(1);
    expect((await flags())[2]).toEqual({ date: "2027-04-01", skips_standups: false });

    mkdirSync(OUTPUT, { recursive: true });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // From the top, so the sticky header is where a reader sees it, not across the middle of the full page.
      await page.evaluate("window.scrollTo(0, 0)");
      await page.screenshot({ path: join(OUTPUT, `calendar-celebrations-admin-${width}.png`), fullPage: true });
    }
    await page.getByRole("button", { name: "Delete Team party" }).click();
    await page
      .getByRole("dialog", { name: "Delete Team party?" })
      .getByRole("button", { name: "Delete holiday" })
      .click();
    await expect.poll(() => row("Team party").count(), { timeout: 10_000 }).toBe(0);
    expect((await flags()).map((h) => h.date)).toEqual(["2027-01-01", "2027-04-01"]);
    await web.t.deps.db.execute(sql`delete from holidays where team_id = ${TEAM}`);
    await page.close();
    expect(problems).toEqual([]);
  });

  it("the Calendar page lets a workspace admin add, rename and delete holidays and import a CSV after a preview", async () => {
    const page = await signedIn(ADMIN);
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Calendar" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Calendar" }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.getByText("The holidays you add move Celebrations only").count()).toBe(0);

    await page.locator("#holiday-date").fill("2027-12-24");
    await page.locator("#holiday-name").fill("Christmas Eve");
    await page.getByRole("button", { name: "Add or rename" }).click();
    await expect.poll(() => holidayCell(page, "Christmas Eve").count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole("button", { name: "Rename Christmas Eve" }).click();
    await page.locator("#holiday-name").fill("Eve");
    await page.getByRole("button", { name: "Add or rename" }).click();
    await expect.poll(() => holidayCell(page, "Eve").count(), { timeout: 10_000 }).toBe(1);
    expect(await holidayCell(page, "Christmas Eve").count()).toBe(0);
    expect(await page.getByRole("row").filter({ hasText: "Eve" }).getByText("Skips standups").count()).toBe(1);

    await page
      .locator("#holiday-csv")
      .fill('date,name\n2027-12-25,"Christmas, the day"\n2027-12-24,Eve\n2027-02-30,Nope\n');
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    await expect
      .poll(() => page.getByText("1 new · 0 renamed · 1 unchanged · 1 invalid").count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.getByRole("cell", { name: /invalid: date must be a real date/ }).count()).toBe(1);
    expect(
      await rows(web.t.deps.db, sql`select 1 from holidays where team_id = ${TEAM} and date = '2027-12-25'`),
    ).toHaveLength(0);
    await page.getByRole("button", { name: "Import 1" }).click();
    await expect.poll(() => page.getByText("Imported: 1 holiday saved.").count(), { timeout: 10_000 }).toBe(1);
    const list = page.getByRole("region", { name: "Holidays", exact: true });
    await expect.poll(() => holidayCell(list, "Christmas, the day").count(), { timeout: 10_000 }).toBe(1);

    await page.getByRole("button", { name: "Delete Eve" }).click();
    await page.getByRole("dialog", { name: "Delete Eve?" }).getByRole("button", { name: "Delete holiday" }).click();
    await expect.poll(() => holidayCell(list, "Eve").count(), { timeout: 10_000 }).toBe(0);
    const stored = await rows<{ date: string; name: string }>(
      web.t.deps.db,
      sql`select date::text, name from holidays where team_id = ${TEAM} order by date`,
    );
    expect(stored).toEqual([{ date: "2027-12-25", name: "Christmas, the day" }]);
    mkdirSync(OUTPUT, { recursive: true });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // From the top, so the sticky header is where a reader sees it, not across the middle of the full page.
      await page.evaluate("window.scrollTo(0, 0)");
      await page.screenshot({ path: join(OUTPUT, `calendar-workspace-admin-${width}.png`), fullPage: true });
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it("a member reads both pages but cannot change them", async () => {
    const page = await signedIn(MEMBER);
    await page.goto(`${web.base}/dashboard/celebrations`);
    // The settings as text, never a greyed-out form.
    const settings = page.locator("section", { hasText: "Settings" }).first();
    await expect.poll(() => settings.locator("dd", { hasText: "#party" }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator("form input, form select, #celebrations-channel").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Save settings" }).count()).toBe(0);
    expect(await settings.locator("div", { hasText: "Celebrations admins" }).locator("dd").textContent()).not.toBe("");
    for (const [size, viewport] of [
      ["1280", { width: 1280, height: 900 }],
      ["390", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(OUTPUT, `celebrations-member-${size}.png`), fullPage: true });
    }
    expect(await page.getByText("Next 30 days").count()).toBe(0);
    await page.goto(`${web.base}/dashboard/calendar`);
    await expect.poll(() => holidayCell(page, "Christmas, the day").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("button", { name: "Add or rename" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /Delete/ }).count()).toBe(0);
    expect(await page.getByText("Import holidays").count()).toBe(0);

    // A holiday in the reports' window shows as a holiday day.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await web.t.deps.db.execute(
      sql`insert into holidays (team_id, date, name) values (${TEAM}, ${yesterday}, 'Founders day')`,
    );
    await page.goto(`${web.base}/dashboard/reports`);
    await expect.poll(() => page.getByText("Founders day").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator(".badge", { hasText: "holiday" }).count()).toBe(1);
    await page.close();
    expect(problems).toEqual([]);
  });
});
