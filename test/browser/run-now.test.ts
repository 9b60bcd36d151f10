import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { issueLoginToken } from "../../src/features/session/index.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createSchedule } from "../support/factories.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
const OUTPUT = join(process.cwd(), "test-output");
const TEAM = "T0RUNWEB";
const ADMIN = "U0RUNWEBADMIN";

describe.runIf(hasChromium)("Run now in a real browser", () => {
  let t: TestApp;
  let base = "";
  let context: BrowserContext;
  let profile = "";
  let scheduleId = "";
  const problems: string[] = [];

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ["scripts/ensure-web-build.mjs"], { encoding: "utf8" });
    if (build.status !== 0) throw new Error(`dashboard build failed: ${build.stderr}`);
    t = await createTestApp({ clock: new ManualClock(new Date()) });
    await t.installTeam(TEAM, { name: "Run Rockets" });
    const people = ["U0RWANA", "U0RWBEN", "U0RWCAT"];
    for (const u of people) await t.addMember(TEAM, u, { realName: u });
    t.fake.addChannel(TEAM, { id: "C0RUNWEB", name: "run-web", members: [...people, "BT0RUNWEBBOT"] });
    scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0RUNWEB", time: "09:00" });
    await t.app.server.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    profile = mkdtempSync(join(tmpdir(), "upbeat-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await t?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function adminPage(): Promise<Page> {
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${base}/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, TEAM, ADMIN))}`);
    await page.waitForURL(`${base}/dashboard`);
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
    await page.goto(`${base}/dashboard/standups/new`);
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
      rows<{ trigger: string }>(t.deps.db, sql`select trigger from standup_runs where schedule_id = ${scheduleId}`);
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
