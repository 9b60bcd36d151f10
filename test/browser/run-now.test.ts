import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule } from "../support/factories.ts";

const TEAM = "T0RUNWEB";
const ADMIN = "U0RUNWEBADMIN";

describe.runIf(hasChromium)("Run now in a real browser", () => {
  let scheduleId = "";

  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Run Rockets" });
      const people = ["U0RWANA", "U0RWBEN", "U0RWCAT"];
      for (const u of people) await t.addMember(TEAM, u, { realName: u });
      t.fake.addChannel(TEAM, { id: "C0RUNWEB", name: "run-web", members: [...people, "BT0RUNWEBBOT"] });
      scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0RUNWEB", time: "09:00" });
    },
  });
  const { problems } = web;

  async function adminPage(): Promise<Page> {
    const page = await web.signIn(TEAM, ADMIN);
    await page.getByRole("link", { name: "Standups", exact: true }).click();
    return page;
  }

  it("the list shows the standup's name, next run and participant count; the editor its settings and a same-channel warning", async () => {
    const page = await adminPage();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "#run-web standup" }) });
    await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(1);
    expect(await card.getByText("3 people").count()).toBe(1);
    expect(await card.getByText("Next run").count()).toBe(1);
    expect(await card.getByText("None yet").count()).toBe(1);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "standups-list.png"), fullPage: true });
    await card.getByRole("link", { name: "Edit standup in #run-web" }).click();
    await expect.poll(() => page.locator("#blocker-question").count(), { timeout: 10_000 }).toBe(1);
    // A default name stays empty in the form (it follows the channel); the defaults show as chosen.
    expect(await page.locator("#name").inputValue()).toBe("");
    expect(await page.locator("#name").getAttribute("placeholder")).toBe("#run-web standup");
    expect(await page.locator("#blocker-question option:checked").textContent()).toContain("3.");
    expect(await page.locator("#reminder option:checked").textContent()).toBe("2 hours after the ask");
    await page.screenshot({ path: join(OUTPUT, "standup-editor.png"), fullPage: true });
    expect(await page.getByText("already has an active standup").count()).toBe(0);

    // A second standup in the same channel is allowed, with a warning.
    await page.goto(`${web.base}/dashboard/standups/new`);
    const channel = page.locator("#channel");
    await channel.click();
    await channel.fill("run-web");
    await channel.press("Enter");
    await expect
      .poll(() => page.getByText("#run-web already has an active standup (#run-web standup)").count())
      .toBe(1);
    await page.close();
  });

  it("Run now asks for confirmation with how many people will be asked, starts one run, and a second press says it already ran", async () => {
    const page = await adminPage();
    const runButton = page.getByRole("button", { name: "Run now standup in #run-web" });
    await expect.poll(() => runButton.count(), { timeout: 10_000 }).toBe(1);

    await runButton.click();
    const dialog = page.getByRole("dialog", { name: "Run this standup now?" });
    await expect.poll(() => dialog.getByText("3 people").count()).toBe(1);
    await dialog.getByRole("button", { name: "Run now" }).click();
    await expect
      .poll(() => page.getByText("Started today's run of #run-web standup: asking 3 people.").count(), {
        timeout: 10_000,
      })
      .toBe(1);
    expect(await dialog.isVisible()).toBe(false);
    const runs = () =>
      rows<{ trigger: string }>(web.t.deps.db, sql`select trigger from standup_runs where schedule_id = ${scheduleId}`);
    expect(await runs()).toEqual([{ trigger: "manual" }]);
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "#run-web standup" }) });
    await expect.poll(() => card.getByText(/\(run now\)/).count(), { timeout: 10_000 }).toBe(1);

    await runButton.click();
    await dialog.getByRole("button", { name: "Run now" }).click();
    await expect
      .poll(() => dialog.getByRole("alert").textContent(), { timeout: 10_000 })
      .toContain("already exists: a standup runs at most once a day");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect(await runs()).toHaveLength(1);
    await page.close();
    expect(problems).toEqual([]);
  });
});
