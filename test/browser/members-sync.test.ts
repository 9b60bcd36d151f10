import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueLoginToken } from "../../src/features/session/index.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
const OUTPUT = join(process.cwd(), "test-output");
const TEAM = "T0MSYNCWEB";
const ADMIN = "U0MSYNCADMIN";

describe.runIf(hasChromium)("the Members page's sync status and Sync now, in a real browser", () => {
  let t: TestApp;
  let base = "";
  let context: BrowserContext;
  let profile = "";
  const problems: string[] = [];

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ["scripts/ensure-web-build.mjs"], { encoding: "utf8" });
    if (build.status !== 0) throw new Error(`dashboard build failed: ${build.stderr}`);
    t = await createTestApp({ clock: new ManualClock(new Date()) });
    await t.installTeam(TEAM, { name: "Sync Rockets" });
    t.fake.addUser(TEAM, { id: ADMIN, name: "ada", real_name: "Ada Admin", email: "ada@sync.test", is_owner: true });
    t.fake.addUser(TEAM, { id: "U0MSYNCNEW", name: "nia", real_name: "Nia Newcomer", email: "nia@sync.test" });
    t.fake.addUser(TEAM, { id: "U0MSYNCBOT", name: "bot", real_name: "Some Bot", is_bot: true });
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

  async function membersPage(): Promise<Page> {
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${base}/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, TEAM, ADMIN))}`);
    await page.waitForURL(`${base}/dashboard`);
    await page.getByRole("link", { name: "Members", exact: true }).click();
    await page.getByRole("heading", { name: "Sync with Slack" }).waitFor({ timeout: 10_000 });
    return page;
  }

  it("shows that no sync ran yet; Sync now queues one, the page follows it to its end and lists the newcomer", async () => {
    const page = await membersPage();
    const panel = page.locator("section.member-sync");
    await expect.poll(() => panel.getByRole("status").textContent(), { timeout: 10_000 }).toBe("Not synced yet.");
    expect(await page.getByRole("rowheader", { name: /Nia Newcomer/ }).count()).toBe(0);

    await panel.getByRole("button", { name: "Sync now" }).click();
    await expect
      .poll(() => panel.getByRole("status").textContent(), { timeout: 10_000 })
      .toContain("Queued: it starts in a moment.");
    expect(await panel.getByRole("button", { name: "Syncing…" }).isDisabled()).toBe(true);

    expect(await t.deps.queue.drain()).toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => panel.getByRole("status").textContent(), { timeout: 15_000 })
      .toMatch(/^Last synced .+ \(started by an admin\): 2 people in Slack, 1 added, 0 deactivated\.$/);
    expect(await panel.getByRole("button", { name: "Sync now" }).isEnabled()).toBe(true);
    await expect.poll(() => page.getByRole("rowheader", { name: /Nia Newcomer/ }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("rowheader", { name: /Some Bot/ }).count()).toBe(0);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "members-sync.png"), fullPage: true });
    expect(problems).toEqual([]);
  });

  it("a failed sync shows Slack's reason", async () => {
    t.fake.fail("users.list", { error: "missing_scope" });
    const page = await membersPage();
    const panel = page.locator("section.member-sync");
    await panel.getByRole("button", { name: "Sync now" }).click();
    await expect.poll(() => panel.getByRole("button", { name: "Syncing…" }).count(), { timeout: 10_000 }).toBe(1);
    await t.deps.queue.drain();
    await expect
      .poll(() => panel.getByRole("status").textContent(), { timeout: 15_000 })
      .toContain("Slack refused the member list: missing_scope");
    expect(problems).toEqual([]);
  });
});
