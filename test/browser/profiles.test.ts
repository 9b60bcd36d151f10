import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";

const TEAM = "T0PROFWEB";
const ADMIN = "U0PROFWEBADMIN";
const MEMBER = "U0PROFWEBMEM";
const OTHER = "U0PROFWEBOTHER";

describe.runIf(hasChromium)("the profile pages in a real browser", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Profile Rockets", installer: ADMIN });
      await t.addMember(TEAM, ADMIN, { role: "admin", realName: "Ada Admin", email: "ada@prof.test" });
      await t.addMember(TEAM, MEMBER, { realName: "Mo Member", email: "mo@prof.test" });
      await t.addMember(TEAM, OTHER, { realName: "Olga Other", email: "olga@prof.test" });
    },
  });
  const { problems } = web;

  const signedIn = (userId: string) => web.signIn(TEAM, userId);
  const profileOf = (userId: string) =>
    rows<Record<string, unknown>>(
      web.t.deps.db,
      sql`select birth_month, birth_day, role, celebrate, set_by_admin from profiles
          where team_id = ${TEAM} and user_id = ${userId}`,
    ).then((r) => r[0]);

  it("a member fills in My profile, sees a problem named, and saves", async () => {
    const page = await signedIn(MEMBER);
    await page.getByRole("link", { name: "My profile", exact: true }).click();
    const month = page.getByLabel("Month", { exact: true });
    await expect.poll(() => month.count(), { timeout: 10_000 }).toBe(1);
    // A month without a day: the server's 400 shows under the form and nothing is stored.
    await month.selectOption("2");
    await page.getByLabel("Role", { exact: true }).fill("Support lead");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect.poll(() => page.getByText(/birth_day/).count(), { timeout: 10_000 }).toBe(1);
    expect(await profileOf(MEMBER)).toBeUndefined();

    await page.getByLabel("Day", { exact: true }).selectOption("29");
    await page.getByLabel("Celebrate birthday and work anniversary in the channel").uncheck();
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect.poll(() => page.getByText("Your profile is saved.").count(), { timeout: 10_000 }).toBe(1);
    expect(await profileOf(MEMBER)).toEqual({
      birth_month: 2,
      birth_day: 29,
      role: "Support lead",
      celebrate: false,
      set_by_admin: false,
    });
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "my-profile.png"), fullPage: true });

    await page.reload();
    await expect
      .poll(() => page.getByLabel("Role", { exact: true }).inputValue(), { timeout: 10_000 })
      .toBe("Support lead");
    expect(await page.getByLabel("Month", { exact: true }).inputValue()).toBe("2");
    expect(await page.getByRole("link", { name: "Profiles", exact: true }).count()).toBe(0);
    await page.close();
  });

  it("an admin sees every member's profile, edits one, and imports a CSV after a preview", async () => {
    const page = await signedIn(ADMIN);
    await page.getByRole("link", { name: "Profiles", exact: true }).click();
    const moRow = page.getByRole("row", { name: /Mo Member/ });
    await expect.poll(() => moRow.count(), { timeout: 10_000 }).toBe(1);
    expect(await moRow.textContent()).toContain("29 February");
    expect(await page.getByRole("row", { name: /Olga Other/ }).count()).toBe(1);

    await page.getByRole("button", { name: "Edit Olga Other's profile" }).click();
    const edit = page.getByRole("region", { name: "Edit Olga Other's profile" });
    await edit.getByLabel("Role", { exact: true }).fill("Finance");
    await edit.getByRole("button", { name: "Save profile" }).click();
    await expect.poll(() => page.getByText("Saved Olga Other's profile.").count(), { timeout: 10_000 }).toBe(1);
    // No date changed: set_by_admin (who last set the dates) stays as it was.
    expect(await profileOf(OTHER)).toMatchObject({ role: "Finance", set_by_admin: false });
    await expect
      .poll(() => page.getByRole("row", { name: /Olga Other/ }).textContent(), { timeout: 10_000 })
      .toContain("Finance");

    const csv = [
      "email,birthday,start_date",
      "olga@prof.test,03-15,2022-01-10",
      "mo@prof.test,04-01,",
      "nobody@prof.test,01-01,",
      "olga@prof.test,05-05,",
      "ada@prof.test,13-01,",
    ].join("\n");
    await page.getByLabel("CSV").fill(csv);
    const importButton = page.getByRole("button", { name: "Import", exact: true });
    expect(await importButton.isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect.poll(() => page.getByText(/^Preview: nothing saved yet/).count(), { timeout: 10_000 }).toBe(1);
    const statuses = await page
      .locator("tr[data-status]")
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-status")));
    expect(statuses).toEqual(["ready", "kept", "unmatched", "invalid", "invalid"]);
    expect(await profileOf(OTHER)).toMatchObject({ birth_month: null });
    await page.screenshot({ path: join(OUTPUT, "profiles-import-preview.png"), fullPage: true });

    await importButton.click();
    await expect.poll(() => page.getByText(/^Imported: 1 saved/).count(), { timeout: 10_000 }).toBe(1);
    expect(await profileOf(OTHER)).toMatchObject({ birth_month: 3, birth_day: 15, role: "Finance" });
    expect(await profileOf(MEMBER)).toMatchObject({ birth_month: 2, birth_day: 29 });
    // The import's row names whom it matched by name, not by Slack id.
    expect(await page.locator('tr[data-status="ready"]').textContent()).toContain("Olga Other");
    await expect
      .poll(() => page.locator("tr:not([data-status])", { hasText: "Olga Other" }).textContent(), { timeout: 10_000 })
      .toContain("15 March");
    await page.screenshot({ path: join(OUTPUT, "profiles.png"), fullPage: true });
    await page.close();
    expect(problems).toEqual([]);
  });
});
