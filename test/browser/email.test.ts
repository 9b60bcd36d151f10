import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeEmailProvider, startFakeEmail } from "../../dev/fake-email/index.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createTestApp } from "../support/app.ts";
import { hasChromium, listen, OUTPUT, type Served, useBrowser } from "../support/browser.ts";
import { digestOn, emailEnv } from "../support/email.ts";

const TEAM = "T0MAILWEB";
const ADMIN = "U0MAILWEBADMIN";

describe.runIf(hasChromium)("the e-mail settings in a real browser", () => {
  let mail: FakeEmailProvider;
  let off: Served;
  const web = useBrowser({
    before: async () => {
      mail = await startFakeEmail();
    },
    app: () => ({ env: emailEnv(mail) }),
    seed: async (on) => {
      off = {
        t: await createTestApp({ clock: new ManualClock(new Date()), env: { EMAIL_API_URL: mail.url } }),
        base: "",
      };
      for (const t of [on, off.t]) {
        await t.installTeam(TEAM, { name: "Mail Rockets", installer: ADMIN });
        await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin", email: "ada@mail.test" });
        await t.addMember(TEAM, "U0MAILWEBMEM", { role: "member" });
      }
    },
    ready: async () => {
      off.base = await listen(off.t);
    },
    cleanup: async () => {
      await off?.t.close();
      await mail?.close();
    },
  });
  const { problems } = web;

  it("an admin switches the weekly digest off and on, and it stays as saved", async () => {
    const page = await web.signIn(TEAM, ADMIN);
    await page.getByRole("link", { name: "E-mail", exact: true }).click();
    const toggle = page.getByRole("switch", { name: "Send me the weekly digest" });
    await expect.poll(() => toggle.count(), { timeout: 10_000 }).toBe(1);
    expect(await toggle.isChecked()).toBe(true);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "email-settings.png"), fullPage: true });

    await toggle.click();
    await expect.poll(() => page.getByText("The weekly digest is off for you.").count(), { timeout: 10_000 }).toBe(1);
    expect(await toggle.isChecked()).toBe(false);
    expect(await digestOn(web.t.deps.db, TEAM, ADMIN)).toBe(false);

    await page.reload();
    await expect.poll(() => toggle.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(() => page.getByText("The weekly digest is on for you.").count(), { timeout: 10_000 }).toBe(1);
    expect(await digestOn(web.t.deps.db, TEAM, ADMIN)).toBe(true);
    await page.close();
  });

  it("without EMAIL_API_KEY the page says e-mail is off on this server, with no switch", async () => {
    const page = await web.signIn(TEAM, ADMIN, undefined, { app: off });
    await page.getByRole("link", { name: "E-mail", exact: true }).click();
    await expect.poll(() => page.getByText("E-mail is off on this server").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("switch").count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, "email-off.png"), fullPage: true });
    await page.close();
  });

  it("members see no E-mail page in the menu", async () => {
    const page = await web.signIn(TEAM, "U0MAILWEBMEM");
    await expect
      .poll(() => page.getByRole("link", { name: "Standups", exact: true }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.getByRole("link", { name: "E-mail", exact: true }).count()).toBe(0);
    await page.close();
    expect(problems).toEqual([]);
  });
});
