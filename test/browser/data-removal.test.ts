import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rows } from "../../src/db/client.ts";
import { hasChromium, useBrowser } from "../support/browser.ts";

const TEAM = "T0DELWEB";
const ADMIN = "U0DELWEBADMIN";
const GONE = "U0DELWEBGONE";

describe.runIf(hasChromium)("deleting data from the Members page, in a real browser", () => {
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Doomed Rockets", installer: ADMIN });
      await t.addMember(TEAM, GONE, { realName: "Gus Gone" });
      await t.deps.db.execute(sql`update members set active = false where team_id = ${TEAM} and user_id = ${GONE}`);
    },
  });
  const { problems } = web;
  const count = async (table: string) =>
    (
      await rows<{ n: number }>(
        web.t.deps.db,
        sql`select count(*)::int as n from ${sql.identifier(table)} where team_id = ${TEAM}`,
      )
    )[0]?.n;

  it("deletes a removed member's data after a confirm, then the workspace once its name is typed back", async () => {
    const page = await web.signIn(TEAM, ADMIN);
    await page.getByRole("link", { name: "Members", exact: true }).click();
    const row = page.getByRole("row", { name: /Gus Gone/ });
    await row.getByRole("button", { name: /Delete data/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Delete data" }).click();
    await expect.poll(() => page.getByText("Deleted the data of Gus Gone.").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("row", { name: /Gus Gone/ }).count()).toBe(0);
    expect(await count("members")).toBe(1);

    const zone = page.getByRole("region", { name: "Danger zone" });
    const button = zone.getByRole("button", { name: "Delete workspace data" });
    const input = zone.getByLabel("Type the workspace name to confirm");
    await input.fill("doomed rockets");
    expect(await button.isDisabled()).toBe(true);
    await input.fill("Doomed Rockets");
    expect(await button.isEnabled()).toBe(true);
    await button.click();
    // Signed out, on the sign-in page that says what happened (the address loses its ?deleted=).
    await expect
      .poll(() => page.getByText(/The workspace's data is deleted and Upbeat's access to Slack is revoked/).count(), {
        timeout: 10_000,
      })
      .toBe(1);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    expect(new URL(page.url()).search).toBe("");
    expect(await count("members")).toBe(0);
    expect(await count("installations")).toBe(0);
    expect(await count("sessions")).toBe(0);
    expect(web.t.fake.callsTo("auth.revoke")).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
