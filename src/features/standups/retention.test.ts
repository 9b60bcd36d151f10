import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { pruneInBatches } from "../maintenance/index.ts";
import { standupPruneSteps } from "./retention.ts";

describe("DM-conversation retention", async () => {
  const t = await useTestApp();

  it("drops question and turn rows of runs closed more than a week ago (deleted schedules too), and early answers of dates a week past; keeps the rest", async () => {
    const teamId = "T0DMRET";
    const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId, channelId: "C0DMRET", time: "09:00" });
    for (const date of ["2026-03-01", "2026-03-09"]) {
      await seedRun(t.deps.db, { teamId, scheduleId, date, asked: ["U0DMRET"], answers: {} });
    }
    const runs = await rows<{ id: number; local_date: string }>(
      t.deps.db,
      sql`select id::int, local_date::text from standup_runs where team_id = ${teamId} order by local_date`,
    );
    for (const r of runs) {
      await t.deps.db.execute(sql`insert into dm_questions (run_id, user_id, question_index, team_id, ts, created_at)
        values (${r.id}, ${`U${r.id}`}, 0, ${teamId}, '1.1', now())`);
      await t.deps.db.execute(sql`insert into dm_turns (team_id, user_id, run_id, updated_at)
        values (${teamId}, ${`U${r.id}`}, ${r.id}, now())`);
    }
    for (const date of ["2026-03-01", "2026-03-11"]) {
      await t.deps.db.execute(sql`insert into early_answers (team_id, schedule_id, user_id, local_date, answers,
          questions, submitted_at, updated_at) values (${teamId}, ${scheduleId}, 'U0DMRET', ${date}, '["a"]', '[]', now(), now())`);
    }
    // The schedule is deleted: nothing closes a later run of it to clean up after these.
    await t.deps.db.execute(sql`update schedules set deleted_at = now() where id = ${scheduleId}`);
    const now = new Date("2026-03-10T12:00:00Z");
    for (const step of standupPruneSteps) expect(await pruneInBatches(t.deps.db, step, now)).toBe(1);
    const left = await rows<{ run_id: number }>(t.deps.db, sql`select run_id::int from dm_questions order by 1`);
    expect(left.map((r) => r.run_id)).toEqual([runs[1]!.id]);
    const turns = await rows<{ run_id: number }>(t.deps.db, sql`select run_id::int from dm_turns order by 1`);
    expect(turns.map((r) => r.run_id)).toEqual([runs[1]!.id]);
    const early = await rows<{ d: string }>(t.deps.db, sql`select local_date::text as d from early_answers`);
    expect(early.map((r) => r.d)).toEqual(["2026-03-11"]);
  });
});
