import { join } from "node:path";
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { hasChromium, OUTPUT, useBrowser } from "../support/browser.ts";
import { createSchedule, seedRun } from "../support/factories.ts";
import { NARROW, WIDE } from "../support/nav-entries.ts";

const TEAM = "T0VIAMCP";
const ADMIN = "U0VIAADMIN";
const ANA = "U0VIAANA";
const BEN = "U0VIABEN";

/** Answers and time off an AI client gave through MCP say so in the dashboard (issue 26). */
describe.runIf(hasChromium)("via MCP in the dashboard", () => {
  // The server's clock is the real one (the browser drops a session cookie that expired by its own clock).
  const today = DateTime.utc().toISODate()!;
  const web = useBrowser({
    seed: async (t) => {
      await t.installTeam(TEAM, { name: "Agent Rockets", installer: ADMIN });
      await t.addMember(TEAM, ANA, { realName: "Ana Lopez" });
      await t.addMember(TEAM, BEN, { realName: "Ben Okafor" });
      const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0VIA", time: "09:00" });
      await seedRun(t.deps.db, {
        teamId: TEAM,
        scheduleId,
        date: today,
        asked: [ANA, BEN],
        answers: {
          [ANA]: { answers: ["Wrote the parser", "Tests for it", "none"], mood: "🙂" },
          [BEN]: { answers: ["Reviews", "Deploy", "none"], mood: "😐" },
        },
      });
      await t.deps.db.execute(sql`update responses set via = 'mcp' where team_id = ${TEAM} and user_id = ${ANA}`);
      const end = DateTime.utc().plus({ days: 9 }).toISODate()!;
      const start = DateTime.utc().plus({ days: 7 }).toISODate()!;
      await t.deps.db.execute(sql`insert into time_off (team_id, user_id, start_date, end_date, reason, created_by,
          created_at, updated_at, via) values (${TEAM}, ${ANA}, ${start}, ${end}, 'Conference', ${ANA}, now(), now(),
          'mcp'), (${TEAM}, ${BEN}, ${start}, ${end}, 'Holiday', ${BEN}, now(), now(), null)`);
    },
    watch: { console: true, otherHosts: true },
  });

  for (const [size, viewport] of [
    ["1280", WIDE],
    ["390", NARROW],
  ] as const) {
    it(`at ${size} px the answer card and the time-off list tag what came through MCP`, async () => {
      const page = await web.newPage();
      await page.setViewportSize(viewport);
      await web.signIn(TEAM, ADMIN, "/dashboard/reports", { page });
      const ana = page.locator("article.answer", { hasText: "Wrote the parser" });
      await ana.waitFor();
      expect(await ana.locator(".badge", { hasText: "via MCP" }).count()).toBe(1);
      const ben = page.locator("article.answer", { hasText: "Reviews" });
      expect(await ben.locator(".badge", { hasText: "via MCP" }).count()).toBe(0);
      await ana.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUTPUT, `via-mcp-reports-${size}.png`) });

      await page.goto(`${web.base}/dashboard/time-off`);
      const anaRow = page.locator("tr", { hasText: "Conference" });
      await anaRow.waitFor();
      expect(await anaRow.locator(".badge", { hasText: "via MCP" }).count()).toBe(1);
      expect(await page.locator("tr", { hasText: "Holiday" }).locator(".badge", { hasText: "via MCP" }).count()).toBe(
        0,
      );
      await page.screenshot({ path: join(OUTPUT, `via-mcp-time-off-${size}.png`), fullPage: true });
      expect(web.problems).toEqual([]);
      await page.close();
    });
  }
});
