import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { rows } from "../../db/client.ts";
import { participationAndMembers } from "./participation.repo.ts";

const TEAM = "T0PANSWERED";
const DATE = "2026-03-10";
const NOW = "2026-03-11T11:00:00Z";
const answer = (blocker = false) => ({
  answers: ["Built it", "Ship it", blocker ? "Waiting on the API keys" : "none"] as [string, string, string],
});

/**
 * run_participants.answered and has_blocker (migration 0035) are what the participation views count instead of
 * joining the answers; triggers on responses keep them exact. Every write to responses any code path can make
 * (insert, edit of the blocker, moving an answer, delete) and a participant row added after its member's answer
 * must leave them equal to "has an answer for this run" / "that answer reports a blocker".
 */
describe("a participant's answered and has_blocker follow their answer", async () => {
  const t = await useTestApp();
  t.clock.set(NOW);
  await t.installTeam(TEAM);
  for (const u of ["U0A", "U0B", "U0C", "U0D", "U0E"]) await t.addMember(TEAM, u);
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0PANS", time: "09:00" });
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId,
    date: DATE,
    asked: ["U0A", "U0B", "U0C"],
    answers: { U0A: answer(), U0B: answer(true) },
  });
  const [{ id: runId } = { id: 0 }] = await rows<{ id: number }>(
    t.deps.db,
    sql`select id from standup_runs where team_id = ${TEAM} and local_date = ${DATE}`,
  );

  const state = async () =>
    Object.fromEntries(
      (
        await rows<{ user_id: string; answered: boolean; has_blocker: boolean }>(
          t.deps.db,
          sql`select user_id, answered, has_blocker from run_participants where team_id = ${TEAM} order by run_id, user_id`,
        )
      ).map((r) => [r.user_id, [r.answered, r.has_blocker]]),
    );
  /** What the columns must be: worked out from the answers themselves, the way the views did before. */
  const mismatches = () =>
    rows<{ user_id: string }>(
      t.deps.db,
      sql`select p.user_id from run_participants p
          where p.team_id = ${TEAM}
            and (p.answered, p.has_blocker) is distinct from (
              exists (select 1 from responses r where r.run_id = p.run_id and r.user_id = p.user_id),
              coalesce((select bool_or(r.has_blocker) from responses r where r.run_id = p.run_id and r.user_id = p.user_id), false))`,
    );

  it("starts from the answers an import wrote in the same statement", async () => {
    expect(await state()).toEqual({ U0A: [true, false], U0B: [true, true], U0C: [false, false] });
    expect(await mismatches()).toEqual([]);
  });

  it("follows an edit of the blocker, a deleted answer and a new one", async () => {
    await t.deps.db.execute(sql`update responses set has_blocker = true where run_id = ${runId} and user_id = 'U0A'`);
    expect((await state()).U0A).toEqual([true, true]);
    await t.deps.db.execute(sql`update responses set has_blocker = false where run_id = ${runId} and user_id = 'U0A'`);
    expect((await state()).U0A).toEqual([true, false]);
    await t.deps.db.execute(sql`delete from responses where run_id = ${runId} and user_id = 'U0B'`);
    expect((await state()).U0B).toEqual([false, false]);
    await t.deps.db.execute(
      sql`insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, has_blocker, submitted_at)
          values (${TEAM}, ${scheduleId}, ${runId}, 'U0C', ${DATE}, '["a","b","stuck"]', true, now())`,
    );
    expect((await state()).U0C).toEqual([true, true]);
    expect(await mismatches()).toEqual([]);
  });

  it("moves with an answer moved to another member, and a participant added after the answer starts from it", async () => {
    // An answer given before its member was a participant (a late joiner added to the run afterwards).
    await t.deps.db.execute(
      sql`insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, has_blocker, submitted_at)
          values (${TEAM}, ${scheduleId}, ${runId}, 'U0D', ${DATE}, '["a","b","none"]', false, now())`,
    );
    await t.deps.db.execute(
      sql`insert into run_participants (run_id, user_id, team_id, status, created_at)
          values (${runId}, 'U0D', ${TEAM}, 'asked', now())`,
    );
    expect((await state()).U0D).toEqual([true, false]);
    // Inserting with the columns set wrongly by hand does not stick either.
    await t.deps.db.execute(
      sql`insert into run_participants (run_id, user_id, team_id, status, created_at, answered, has_blocker)
          values (${runId}, 'U0E', ${TEAM}, 'asked', now(), true, true)`,
    );
    expect((await state()).U0E).toEqual([false, false]);
    await t.deps.db.execute(sql`update responses set user_id = 'U0E' where run_id = ${runId} and user_id = 'U0D'`);
    expect((await state()).U0D).toEqual([false, false]);
    expect((await state()).U0E).toEqual([true, false]);
    expect(await mismatches()).toEqual([]);
  });

  it("one statement that deletes or inserts several answers sets each of their participants", async () => {
    await t.deps.db.execute(
      sql`insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, has_blocker, submitted_at)
          values (${TEAM}, ${scheduleId}, ${runId}, 'U0B', ${DATE}, '["a","b","stuck"]', true, now()),
                 (${TEAM}, ${scheduleId}, ${runId}, 'U0D', ${DATE}, '["a","b","none"]', false, now())`,
    );
    expect((await state()).U0B).toEqual([true, true]);
    expect((await state()).U0D).toEqual([true, false]);
    await t.deps.db.execute(sql`delete from responses where run_id = ${runId} and user_id in ('U0B', 'U0D')`);
    expect((await state()).U0B).toEqual([false, false]);
    expect((await state()).U0D).toEqual([false, false]);
    expect(await mismatches()).toEqual([]);
  });

  it("is what analytics counts: a deleted answer is a miss, a new one an answer", async () => {
    const figures = async () => {
      const { daily, members } = await participationAndMembers(t.deps.db, TEAM, DATE, DATE, {}, t.clock.now());
      return {
        day: daily.map((d) => [d.submitted, d.total]),
        members: Object.fromEntries(members.map((m) => [m.user_id, [m.submitted, m.blockers]])),
      };
    };
    const before = await figures();
    expect(before.day).toEqual([[3, 5]]);
    await t.deps.db.execute(sql`delete from responses where run_id = ${runId} and user_id = 'U0A'`);
    const after = await figures();
    expect(after.day).toEqual([[2, 5]]);
    expect(after.members.U0A).toEqual([0, 0]);
    expect(after.members.U0C).toEqual([1, 1]);
  });
});
