import { describe, expect, it } from "vitest";
import { pgliteBefore } from "../../test/support/older-level.ts";

/**
 * Upgrading to blocker items (0029): the blockers counted active just before (a member's latest answer in a live
 * standup within 7 days reports one) become open items, so the figure reads the same after the upgrade.
 */
describe("migration 0029 on a database with answers", () => {
  it("opens an item for each member's latest blocker answer of the last 7 days, in live standups only", async () => {
    // The migrations up to 0028, as an older Upbeat left the database.
    const { pg, upgrade } = await pgliteBefore("0029_standups_beyond");
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    await pg.exec(`
      insert into schedules (id, team_id, channel_id, schedule_time, schedule_tz, schedule_days, questions, created_at, updated_at, deleted_at)
      values ('S1', 'T1', 'C1', '09:00', 'UTC', 'mon', '["a","b","c"]', now(), now(), null),
             ('S2', 'T1', 'C1', '09:00', 'UTC', 'mon', '["a","b","c"]', now(), now(), now());
      insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, blockers, has_blocker, submitted_at) values
        ('T1', 'S1', 1, 'U_OPEN', '${day(3)}', '[]', 'old words', true, now()),
        ('T1', 'S1', 2, 'U_OPEN', '${day(1)}', '[]', 'waiting on keys', true, now()),
        ('T1', 'S1', 2, 'U_CLEARED', '${day(2)}', '[]', 'blocked', true, now()),
        ('T1', 'S1', 3, 'U_CLEARED', '${day(1)}', '[]', 'none', false, now()),
        ('T1', 'S1', 4, 'U_OLD', '${day(9)}', '[]', 'long ago', true, now()),
        ('T1', 'S2', 5, 'U_DELETED', '${day(1)}', '[]', 'deleted standup', true, now());
    `);
    await upgrade();
    const { rows } = await pg.query<{ user_id: string; text: string; status: string; opened_date: string }>(
      "select user_id, text, status, opened_date::text as opened_date from blockers order by user_id",
    );
    expect(rows).toEqual([{ user_id: "U_OPEN", text: "waiting on keys", status: "open", opened_date: day(1) }]);
    await pg.close();
  }, 60_000);
});
