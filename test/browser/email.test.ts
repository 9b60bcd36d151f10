import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeEmailProvider, startFakeEmail } from "../../dev/fake-email/index.ts";
import { issueLoginToken } from "../../src/features/session/index.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { digestOn, emailEnv } from "../support/email.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
const OUTPUT = join(process.cwd(), "test-output");
const TEAM = "T0MAILWEB";
const ADMIN = "U0MAILWEBADMIN";

async function listen(t: TestApp): Promise<string> {
  await t.app.server.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

describe.runIf(hasChromium)("the e-mail settings in a real browser", () => {
  let mail: FakeEmailProvider;
  let on: TestApp;
  let off: TestApp;
  let onBase = "";
  let offBase = "";
  let context: BrowserContext;
  let profile = "";
  const problems: string[] = [];

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ["scripts/ensure-web-build.mjs"], { encoding: "utf8" });
    if (build.status !== 0) throw new Error(`dashboard build failed: ${build.stderr}`);
    mail = await startFakeEmail();
    on = await createTestApp({ clock: new ManualClock(new Date()), env: emailEnv(mail) });
    off = await createTestApp({ clock: new ManualClock(new Date()), env: { EMAIL_API_URL: mail.url } });
    for (const t of [on, off]) {
      await t.installTeam(TEAM, { name: "Mail Rockets", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin", email: "ada@mail.test" });
      await t.addMember(TEAM, "U0MAILWEBMEM", { role: "member" });
    }
    onBase = await listen(on);
    offBase = await listen(off);
    profile = mkdtempSync(join(tmpdir(), "upbeat-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await on?.close();
    await off?.close();
    await mail?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function signedIn(t: TestApp, base: string, userId: string): Promise<Page> {
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${base}/dashboard/login?t=${encodeURIComponent(issueLoginToken(t.deps, TEAM, userId))}`);
    await page.waitForURL(`${base}/dashboard`);
    return page;
  }

  it("an admin switches the weekly digest off and on, and it stays as saved", async () => {
    const page = await signedIn(on, onBase, ADMIN);
    await page.getByRole("link", { name: "E-mail", exact: true }).click();
    const toggle = page.getByRole("switch", { name: "Send me the weekly digest" });
    await expect.poll(() => toggle.count(), { timeout: 10_000 }).toBe(1);
    expect(await toggle.isChecked()).toBe(true);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "email-settings.png"), fullPage: true });

    await toggle.click();
    await expect.poll(() => page.getByText("The weekly digest is off for you.").count(), { timeout: 10_000 }).toBe(1);
    expect(await toggle.isChecked()).toBe(false);
    expect(await digestOn(on.deps.db, TEAM, ADMIN)).toBe(false);

    await page.reload();
    await expect.poll(() => toggle.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(() => page.getByText("The weekly digest is on for you.").count(), { timeout: 10_000 }).toBe(1);
    expect(await digestOn(on.deps.db, TEAM, ADMIN)).toBe(true);
    await page.close();
  });

  it("without EMAIL_API_KEY the page says e-mail is off on this server, with no switch", async () => {
    const page = await signedIn(off, offBase, ADMIN);
    await page.getByRole("link", { name: "E-mail", exact: true }).click();
    await expect.poll(() => page.getByText("E-mail is off on this server").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("switch").count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, "email-off.png"), fullPage: true });
    await page.close();
  });

  it("members see no E-mail page in the menu", async () => {
    const page = await signedIn(on, onBase, "U0MAILWEBMEM");
    await expect
      .poll(() => page.getByRole("link", { name: "Standups", exact: true }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.getByRole("link", { name: "E-mail", exact: true }).count()).toBe(0);
    await page.close();
    expect(problems).toEqual([]);
  });
});
