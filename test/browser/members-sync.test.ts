import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";

const TEAM = "T0MSYNCWEB";
const ADMIN = "U0MSYNCADMIN";

describe.runIf(hasChromium)("the Members page's sync status and Sync now, in a real browser", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Sync Rockets" });
      t.fake.addUser(TEAM, { id: ADMIN, name: "ada", real_name: "Ada Admin", email: "ada@sync.test", is_owner: true });
      t.fake.addUser(TEAM, { id: "U0MSYNCNEW", name: "nia", real_name: "Nia Newcomer", email: "nia@sync.test" });
      t.fake.addUser(TEAM, { id: "U0MSYNCBOT", name: "bot", real_name: "Some Bot", is_bot: true });
    },
  });
  const { problems } = web;

  async function membersPage(): Promise<Page> {
    const page = await web.signIn(TEAM, ADMIN);
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

    expect(await web.t.deps.queue.drain()).toBeGreaterThanOrEqual(1);
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
    web.t.fake.fail("users.list", { error: "missing_scope" });
    const page = await membersPage();
    const panel = page.locator("section.member-sync");
    await panel.getByRole("button", { name: "Sync now" }).click();
    // "Syncing…" shows while the request is still on its way; "Queued" means the job exists to be drained.
    await expect
      .poll(() => panel.getByRole("status").textContent(), { timeout: 10_000 })
      .toContain("Queued: it starts in a moment.");
    expect(await web.t.deps.queue.drain()).toBeGreaterThanOrEqual(1);
    await expect
      .poll(() => panel.getByRole("status").textContent(), { timeout: 15_000 })
      .toContain("Slack refused the member list: missing_scope");
    expect(problems).toEqual([]);
  });
});
