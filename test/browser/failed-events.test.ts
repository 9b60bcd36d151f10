import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";

const TEAM = "T0FAILWEB";
const ADMIN = "U0FAILADMIN";

describe.runIf(hasChromium)(
  "the Members page lists Slack events that could not be processed, in a real browser",
  () => {
    const web = useBrowser({
      seed: async (t) => {
        await t.installTeam(TEAM, { name: "Failing Falcons", installer: ADMIN });
        t.fake.addUser(TEAM, {
          id: ADMIN,
          name: "ada",
          real_name: "Ada Admin",
          email: "ada@fail.test",
          is_owner: true,
        });
        const at = (minutesAgo: number) => new Date(t.clock.now().getTime() - minutesAgo * 60_000).toISOString();
        await t.deps.db.execute(sql`insert into chat_events
          (event_id, team_id, received_at, kind, type, state, attempts, last_error, updated_at)
        values ('EvWEB1', ${TEAM}, ${at(90)}, 'event', 'message', 'failed', 5,
                'P0001: canceling statement due to statement timeout', ${at(45)}),
               ('trig.1/abc', ${TEAM}, ${at(30)}, 'interaction', 'block_actions', 'failed', 1,
                'slack_webapi_platform_error: An API error occurred: expired_trigger_id', ${at(30)}),
               ('EvOTHER', 'T0ELSEWHERE', ${at(20)}, 'event', 'app_home_opened', 'failed', 5, 'not ours', ${at(10)})`);
      },
    });
    const { problems } = web;

    it("shows kind, type, attempts and the error, newest first, and only this workspace's; fits 1280 and 390 px", async () => {
      const page = await web.signIn(TEAM, ADMIN);
      await page.getByRole("link", { name: "Members", exact: true }).click();
      const section = page.locator("section", {
        has: page.getByRole("heading", { name: "Slack events that could not be processed" }),
      });
      await section.waitFor({ timeout: 10_000 });
      const rows = section.locator("tbody tr");
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
      expect(await rows.nth(0).textContent()).toContain("Button or form block_actions");
      expect(await rows.nth(0).textContent()).toContain("expired_trigger_id");
      expect(await rows.nth(1).textContent()).toContain("Event message");
      expect(await rows.nth(1).textContent()).toContain("5");
      expect(await section.textContent()).not.toContain("not ours");

      mkdirSync(OUTPUT, { recursive: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUTPUT, "failed-events-1280.png") });
      await page.setViewportSize({ width: 390, height: 844 });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUTPUT, "failed-events-390.png") });
      // Nothing wider than the phone's screen.
      const overflow = Number(await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"));
      expect(overflow).toBeLessThanOrEqual(0);
      expect(problems).toEqual([]);
    });
  },
);
