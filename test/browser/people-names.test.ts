import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { issueFeedToken } from "../../src/features/feed/index.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { setProfile } from "../support/celebrations.ts";
import { createSchedule, seedRun } from "../support/factories.ts";

const TEAM = "T0PNAMES";
const ADMIN = "U0PNADMIN";
const MAYA = "U0PNMAYA";
const LUCIA = "U0PNLUCIA";
/** Asked yesterday, then deleted with all their data: only the id is left. */
const GONE = "U0PNGONE";
const BOT = "B0PNBOT";
const STAND = "C0PNSTAND";
/** A channel Slack no longer lists: its standup must not be named by this id. */
const LOST = "C0PNLOST";

/**
 * What a Slack id looks like in text (none may be shown as a person's or channel's label): the brief's
 * `\b[UCTW][A-Z0-9]{6,}\b`, with at least one digit, so an upper-cased heading such as "CONNECT" is not one.
 */
const RAW_ID = /\b(?=[UCTW][A-Z0-9]{6,}\b)[UCTW][A-Z]*[0-9][A-Z0-9]*\b/g;
const rawIds = async (page: Page) => (await page.evaluate<string>("document.body.innerText")).match(RAW_ID) ?? [];

const SIZES = [
  ["1280", { width: 1280, height: 900 }],
  ["390", { width: 390, height: 844 }],
] as const;

describe.runIf(hasChromium)("people and channels by name, never by id", () => {
  let feedToken = "";
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Name Rockets", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin", email: "ada@names.test" });
      await t.addMember(TEAM, MAYA, { realName: "Maya Okafor", email: "maya@names.test" });
      await t.addMember(TEAM, LUCIA, { realName: "Lucía Fernández", email: "lucia@names.test" });
      t.fake.addUser(TEAM, { id: LUCIA, name: "lucia.f", real_name: "Lucía Fernández", email: "lucia@names.test" });
      // Handles as Slack has them: Maya goes by "maya" (the name Celebrations used to show).
      await t.deps.db.execute(sql`update members set display_name = case user_id
          when ${ADMIN} then 'ada' when ${MAYA} then 'maya' when ${LUCIA} then 'lucia.f' end where team_id = ${TEAM}`);
      t.fake.addChannel(TEAM, { id: STAND, name: "people-standup", members: [ADMIN, MAYA, BOT] });
      const today = t.clock.now().toISOString().slice(0, 10);
      const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: STAND, time: "09:00" });
      await seedRun(t.deps.db, {
        teamId: TEAM,
        scheduleId,
        date: today,
        asked: [ADMIN, MAYA, GONE],
        answers: {
          [MAYA]: {
            answers: [`Paired with <@${LUCIA}> in <#${STAND}> for <!subteam^S0PNDEVS|@devs>`, "Reviews", "none"],
            mood: "🙂",
          },
          [GONE]: { answers: ["Handed over", "Leaving", "none"], mood: "🙂" },
        },
      });
      const lostId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: LOST, time: "10:00" });
      await seedRun(t.deps.db, {
        teamId: TEAM,
        scheduleId: lostId,
        date: today,
        asked: [MAYA],
        answers: { [MAYA]: { answers: ["Old channel", "More", "none"], mood: "🙂" } },
      });
      // Maya's birthday is in three days.
      const soon = new Date(t.clock.now().getTime() + 3 * 86_400_000);
      const md = `${String(soon.getUTCMonth() + 1).padStart(2, "0")}-${String(soon.getUTCDate()).padStart(2, "0")}`;
      await setProfile(t.deps.db, TEAM, MAYA, { birthday: md, startDate: "2021-03-01" });
      feedToken = await issueFeedToken(t.deps, TEAM, ADMIN);
    },
  });
  const { problems } = web;

  const shoot = async (page: Page, name: string) => {
    mkdirSync(OUTPUT, { recursive: true });
    // From the top: a full-page shot taken scrolled down paints the sticky bar mid-page.
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(OUTPUT, name), fullPage: true });
  };

  it("Members: the picker finds Lucía by 'lucia', adding sends her user id, and no id is shown", async () => {
    // Lucía was deactivated: she is whom "Add a member" offers.
    await web.t.deps.db.execute(sql`update members set active = false where team_id = ${TEAM} and user_id = ${LUCIA}`);
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/members");
    const picker = page.locator("#invite-person");
    await expect.poll(() => page.getByText("Maya Okafor").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await picker.fill("lucia");
    const option = page.getByRole("option", { name: /Lucía Fernández/ });
    await expect.poll(() => option.count(), { timeout: 10_000 }).toBe(1);
    expect(await option.textContent()).toContain("@lucia.f");
    expect(await option.locator("img, .avatar-initials").count()).toBe(1);
    // Nobody else matches: the active members are not offered.
    expect(await page.getByRole("listbox").getByRole("option").count()).toBe(1);
    await picker.press("Enter");
    expect(await picker.inputValue()).toBe("Lucía Fernández");
    const sent = page.waitForRequest((r) => r.url().endsWith("/dashboard/api/members/invite"));
    await page.getByRole("button", { name: "Add member", exact: true }).click();
    expect((await sent).postDataJSON()).toEqual({ user_id: LUCIA });
    await expect.poll(() => page.getByText("Added Lucía Fernández.").count(), { timeout: 10_000 }).toBe(1);
    const [row] = await rows<{ active: boolean }>(
      web.t.deps.db,
      sql`select active from members where team_id = ${TEAM} and user_id = ${LUCIA}`,
    );
    expect(row?.active).toBe(true);
    // The id fallback waits behind a disclosure, labelled plainly.
    expect(await page.getByLabel("Slack member ID").isVisible()).toBe(false);
    await page.getByText("Not in the list? Add by Slack member ID").click();
    expect(await page.getByLabel("Slack member ID").isVisible()).toBe(true);
    await page.getByText("Not in the list? Add by Slack member ID").click();

    for (const [size, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      expect(await rawIds(page), size).toEqual([]);
      await shoot(page, `people-members-${size}.png`);
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it("Today: names for who did not answer (a deleted person is a former member) and mentions as names", async () => {
    const page = await web.signIn(TEAM, ADMIN);
    await expect.poll(() => page.getByText(/Paired with/).count(), { timeout: 10_000 }).toBe(1);
    // Polled: the answer can show before the people list arrives ("@someone"), then reads the name.
    await expect
      .poll(() => page.getByText(/Paired with/).textContent(), { timeout: 10_000 })
      .toBe("Paired with @Lucía Fernández in #people-standup for @devs");
    expect(await page.locator(".not-answered").first().textContent()).toContain("Ada Admin");
    await expect.poll(() => page.getByText("Former member").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Standup in a channel").count()).toBeGreaterThan(0);
    for (const [size, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      expect(await rawIds(page), size).toEqual([]);
      await shoot(page, `people-overview-${size}.png`);
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it("Celebrations: 'Maya Okafor' in the upcoming list; admins picked by name are saved by id", async () => {
    await web.t.deps.db.execute(sql`update members set active = true where team_id = ${TEAM} and user_id = ${LUCIA}`);
    const page = await web.signIn(TEAM, ADMIN, "/dashboard/celebrations");
    const upcoming = page.locator("section", { hasText: "Next 30 days" });
    await expect.poll(() => upcoming.getByText("Maya Okafor").count(), { timeout: 10_000 }).toBe(1);
    expect(await upcoming.getByText("maya", { exact: true }).count()).toBe(0);

    const channel = page.locator("#celebrations-channel");
    await channel.fill("people");
    await expect.poll(() => page.getByRole("option", { name: "#people-standup" }).count()).toBe(1);
    await channel.press("Enter");
    const admins = page.locator("#celebrations-admins");
    await admins.fill("lucia");
    await expect.poll(() => page.getByRole("option", { name: /Lucía Fernández/ }).count()).toBe(1);
    await admins.press("Enter");
    await expect.poll(() => page.getByRole("button", { name: "Remove Lucía Fernández" }).count()).toBe(1);
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.getByText("Celebrations settings saved.").count(), { timeout: 10_000 }).toBe(1);
    const [saved] = await rows<{ admins: string[]; channel_id: string }>(
      web.t.deps.db,
      sql`select admins, channel_id from celebration_settings where team_id = ${TEAM}`,
    );
    expect(saved).toEqual({ admins: [LUCIA], channel_id: STAND });
    for (const [size, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      expect(await rawIds(page), size).toEqual([]);
      await shoot(page, `people-celebrations-${size}.png`);
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it("the public feed names the standup after its channel's name, and mentions by name", async () => {
    const page = await web.newPage();
    await page.goto(`${web.base}/feed/${feedToken}`);
    const text = await page.evaluate<string>("document.body.innerText");
    expect(text).toContain("#people-standup standup");
    expect(text).toContain("Standup in a channel");
    expect(text).toContain("Paired with @Lucía Fernández in #people-standup for @devs");
    expect(text).toContain("Former member");
    for (const [size, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      expect(await rawIds(page), size).toEqual([]);
      await shoot(page, `people-feed-${size}.png`);
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});
