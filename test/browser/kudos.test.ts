import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { kudos } from "../../src/db/schema.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule } from "../support/factories.ts";

const TEAM = "T0KWEB";
const EMPTY_TEAM = "T0KWEMPTY";
const ADMIN = "U0KWEBADMIN";
const MEMBER = "U0KWMEM";

describe.runIf(hasChromium)("the Kudos page in a real browser", () => {
  let scheduleId = "";

  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Kudos Rockets", installer: ADMIN });
      await t.installTeam(EMPTY_TEAM, { name: "Quiet Team" });
      for (const [id, name] of [
        ["U0KWANA", "Ana Lima"],
        ["U0KWBEN", "Ben Okoro"],
        ["U0KWCAT", "Cat Nguyen"],
        [MEMBER, "Mo Member"],
      ] as const) {
        await t.addMember(TEAM, id, { realName: name });
      }
      await t.addMember(EMPTY_TEAM, "U0KWQUIET", { realName: "Quiet Person" });
      t.fake.addChannel(TEAM, { id: "C0KWSTAND", name: "kudos-standup", members: [ADMIN, "B0KWEBBOT"] });
      scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0KWSTAND", time: "09:00" });
      const now = Date.now();
      let seq = 0;
      const give = (from: string, to: string, daysAgo: number, message: string) =>
        t.deps.db.insert(kudos).values({
          teamId: TEAM,
          fromUser: from,
          toUser: to,
          message,
          channelId: "C0KWGNRL",
          source: "message",
          sourceKey: `msg:C0KWGNRL:${++seq}`,
          givenOn: new Date(now - daysAgo * 86400_000).toISOString().slice(0, 10),
          createdAt: new Date(now - daysAgo * 86400_000 - seq * 1000),
        });
      await give(
        "U0KWANA",
        "U0KWBEN",
        0,
        "<@U0KWBEN> kudos for the demo :tada: & the <https://example.com/notes|notes>",
      );
      await give("U0KWCAT", "U0KWBEN", 1, "<@U0KWBEN> ++");
      await give("U0KWBEN", "U0KWANA", 2, "thanks for <script>alert(1)</script> reviewing");
      await give("U0KWANA", "U0KWCAT", 20, "kudos <@U0KWCAT> for the launch");
      await give("U0KWBEN", "U0KWCAT", 21, "kudos <@U0KWCAT> again");
      await give("U0KWANA", "U0KWCAT", 22, "and again, <@U0KWCAT> ++");
    },
    watch: { console: true, dialogs: true },
  });
  const { problems } = web;

  const signedIn = (teamId: string, userId: string) => web.signIn(teamId, userId);

  it("a member opens Kudos from the menu: the leaderboard for a period and the recent kudos, newest first", async () => {
    const page = await signedIn(TEAM, MEMBER);
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Kudos" }).click();
    await page.waitForURL(`${web.base}/dashboard/kudos`);
    await expect.poll(() => page.getByRole("heading", { level: 1, name: "Kudos" }).count()).toBe(1);
    expect(await page.title()).toBe("Kudos · Upbeat");

    const board = page.getByRole("table", { name: /Kudos received in the last 30 days/ });
    await expect.poll(() => board.locator("tbody tr").count(), { timeout: 10_000 }).toBe(3);
    expect(await board.locator("tbody tr").allInnerTexts()).toEqual([
      "1\tCat Nguyen\t3",
      "2\tBen Okoro\t2",
      "3\tAna Lima\t1",
    ]);

    const recent = page.getByRole("list", { name: "Recent kudos, newest first" });
    const items = recent.getByRole("listitem");
    expect(await items.count()).toBe(6);
    expect(await items.first().locator(".kudo-people").textContent()).toBe("Ana Lima gave kudos to Ben Okoro");
    // Mentions read as names, shortcodes as emoji, links as their label; nothing typed becomes markup.
    expect(await items.first().locator(".kudo-message").textContent()).toBe(
      "@Ben Okoro kudos for the demo 🎉 & the notes",
    );
    expect(await items.nth(2).locator(".kudo-message").textContent()).toBe(
      "thanks for <script>alert(1)</script> reviewing",
    );
    expect(await items.first().locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // A shorter period: the older kudos drop out, ties share a place.
    await page.getByLabel("Period").selectOption({ label: "Last 7 days" });
    const week = page.getByRole("table", { name: /Kudos received in the last 7 days/ });
    await expect
      .poll(() => week.locator("tbody tr").allInnerTexts(), { timeout: 10_000 })
      .toEqual(["1\tBen Okoro\t2", "2\tAna Lima\t1"]);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "kudos.png"), fullPage: true });
    await page.close();
    expect(problems).toEqual([]);
  });

  it("shows empty states when there are no kudos", async () => {
    const page = await signedIn(EMPTY_TEAM, "U0KWQUIET");
    await page.goto(`${web.base}/dashboard/kudos`);
    await expect.poll(() => page.getByText("No kudos in the last 30 days").count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.getByText("No kudos yet").count()).toBe(1);
    expect(await page.getByText("/upbeat kudos @someone").count()).toBe(1);
    await page.close();
    expect(problems).toEqual([]);
  });

  it("an admin switches a standup's shout-out on in the editor", async () => {
    const page = await signedIn(TEAM, ADMIN);
    await page.goto(`${web.base}/dashboard/standups/${scheduleId}`);
    const box = page.getByLabel("Add a shout-out to the answer form");
    await expect.poll(() => box.count(), { timeout: 10_000 }).toBe(1);
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(`${web.base}/dashboard/standups`);
    const stored = () =>
      rows<{ kudos_field: boolean }>(web.t.deps.db, sql`select kudos_field from schedules where id = ${scheduleId}`);
    await expect.poll(stored).toEqual([{ kudos_field: true }]);
    await page.goto(`${web.base}/dashboard/standups/${scheduleId}`);
    await expect.poll(() => page.getByLabel("Add a shout-out to the answer form").isChecked()).toBe(true);
    await page.close();
    expect(problems).toEqual([]);
  });
});
