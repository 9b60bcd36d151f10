import { describe, expect, it } from "vitest";
import { pgliteBefore } from "../../test/support/older-level.ts";

/**
 * Upgrading to answers kept on the participant (0035): every participant of the runs already stored starts from
 * their answer, so the participation figures read the same after the upgrade as before it.
 */
describe("migration 0035 on a database with answers", () => {
  it("sets answered and has_blocker of each participant from their answer to that run", async () => {
    const { pg, upgrade } = await pgliteBefore("0035_participant_answered");
    await pg.exec(`
      insert into run_participants (run_id, user_id, team_id, status, created_at) values
        (1, 'U_ANSWERED', 'T1', 'answered', now()), (1, 'U_BLOCKED', 'T1', 'answered', now()),
        (1, 'U_MISSED', 'T1', 'asked', now()), (2, 'U_ANSWERED', 'T1', 'asked', now());
      insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, has_blocker, submitted_at) values
        ('T1', 'S1', 1, 'U_ANSWERED', '2026-03-09', '[]', false, now()),
        ('T1', 'S1', 1, 'U_BLOCKED', '2026-03-09', '[]', true, now()),
        ('T1', 'S1', 3, 'U_MISSED', '2026-03-11', '[]', true, now());
    `);
    await upgrade();
    const { rows } = await pg.query<{ run_id: number; user_id: string; answered: boolean; has_blocker: boolean }>(
      "select run_id::int as run_id, user_id, answered, has_blocker from run_participants order by run_id, user_id",
    );
    expect(rows).toEqual([
      { run_id: 1, user_id: "U_ANSWERED", answered: true, has_blocker: false },
      { run_id: 1, user_id: "U_BLOCKED", answered: true, has_blocker: true },
      { run_id: 1, user_id: "U_MISSED", answered: false, has_blocker: false },
      { run_id: 2, user_id: "U_ANSWERED", answered: false, has_blocker: false },
    ]);
    await pg.close();
  }, 60_000);
});
