import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { addHoliday, createSchedule, seedRun, setWorkspaceTimezone } from "../../../test/support/factories.ts";
import { SLACK_BUCKETS, takeSlot } from "../../chat/rate-buckets.ts";
import { type Executor, rows } from "../../db/client.ts";
import { teamTables } from "./erase.ts";
import { PERSONAL_DATA } from "./personal-data.registry.ts";

/** The columns whose rows belong to one person (the registry's row deletions). */
const personColumns = () =>
  PERSONAL_DATA.flatMap((f) => f.places).flatMap((p) =>
    p.kind === "rows" && !p.where ? [{ table: p.table, column: p.column }] : [],
  );

const A = "T0DELA";
const B = "T0DELB";
const ADMIN = "U0DELADMIN";
const PEER = "U0DELPEER";
const GONE = "U0DELGONE";

function json(cookie: string, payload: unknown) {
  return { cookie, "content-type": "application/json", payload: JSON.stringify(payload) };
}

/** Rows per team_id table for one workspace. */
async function counts(ex: Executor, teamId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of await teamTables(ex)) {
    const [row] = await rows<{ n: number }>(
      ex,
      sql`select count(*)::int as n from ${sql.identifier(table)} where team_id = ${teamId}`,
    );
    out[table] = row?.n ?? 0;
  }
  return out;
}

async function queuedJobs(ex: Executor, teamId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from pgboss.job where data->>'teamId' = ${teamId} and state in ('created', 'retry')`,
  );
  return row?.n ?? 0;
}

/** Data in every feature, through the real routes and factories where there are some, rows where not. */
async function seedWorkspace(t: TestApp, teamId: string, admin: string): Promise<string> {
  const db = t.deps.db;
  const now = t.clock.now();
  await t.installTeam(teamId, { name: `Team ${teamId}`, installer: admin });
  await t.addMember(teamId, `${PEER}${teamId}`);
  await t.addMember(teamId, `${GONE}${teamId}`);
  const cookie = await t.signIn(teamId, admin);
  await setWorkspaceTimezone(db, teamId, "Europe/Berlin");
  await addHoliday(db, teamId, "2026-12-25", "Christmas");
  const scheduleId = await createSchedule(db, t.clock, { teamId, channelId: "C0DEL", time: "09:00" });
  await seedRun(db, {
    teamId,
    scheduleId,
    date: "2026-11-20",
    asked: [admin, `${GONE}${teamId}`],
    answers: {
      [admin]: { answers: ["a", "b", "none"], mood: "good" },
      [`${GONE}${teamId}`]: { answers: ["x", "y", "blocked on z"], mood: "bad" },
    },
  });
  expect((await t.inject({ method: "POST", url: "/dashboard/api/mcp/keys", headers: { cookie } })).statusCode).toBe(
    201,
  );
  const feed = await t.inject({ method: "POST", url: "/dashboard/api/feed-token", headers: { cookie } });
  expect(feed.statusCode).toBeLessThan(300);
  const gone = `${GONE}${teamId}`;
  const peer = `${PEER}${teamId}`;
  await db.execute(sql`
    insert into kudos (team_id, from_user, to_user, message, channel_id, source, source_key, given_on, created_at)
    values (${teamId}, ${gone}, ${peer}, 'thanks', 'C0DEL', 'message', ${`k1${teamId}`}, '2026-11-20', ${now}),
           (${teamId}, ${peer}, ${gone}, 'great', 'C0DEL', 'message', ${`k2${teamId}`}, '2026-11-20', ${now}),
           (${teamId}, ${peer}, ${admin}, 'kept', 'C0DEL', 'message', ${`k3${teamId}`}, '2026-11-20', ${now})`);
  await db.execute(sql`insert into profiles (team_id, user_id, birth_month, birth_day, updated_at)
    values (${teamId}, ${gone}, 3, 14, ${now}), (${teamId}, ${peer}, 4, 1, ${now})`);
  await db.execute(sql`insert into time_off (team_id, user_id, start_date, end_date, created_by, created_at, updated_at)
    values (${teamId}, ${gone}, '2026-12-01', '2026-12-05', ${admin}, ${now}, ${now})`);
  await db.execute(
    sql`insert into celebration_settings (team_id, channel_id, updated_at) values (${teamId}, 'C0DEL', ${now})`,
  );
  await db.execute(sql`insert into celebration_posts (team_id, kind, post_date, user_ids, claimed_at)
    values (${teamId}, 'birthday', '2026-03-14', ${JSON.stringify([gone])}::jsonb, ${now})`);
  await db.execute(sql`insert into celebration_asks (team_id, user_id, asked_at) values (${teamId}, ${gone}, ${now})`);
  await db.execute(sql`insert into rules (team_id, trigger, action, action_target, created_by, created_at, updated_at)
    values (${teamId}, 'blocker_reported', 'dm_admin', ${admin}, ${admin}, ${now}, ${now})`);
  await db.execute(sql`insert into rule_firings (team_id, rule_id, run_id, created_at)
    select ${teamId}, r.id, 1, ${now} from rules r where r.team_id = ${teamId}`);
  await db.execute(sql`insert into webhook_endpoints (team_id, url, events, secret_enc, created_by, created_at)
    values (${teamId}, 'https://hooks.example.com/x', array['standup.submitted'], 'enc', ${admin}, ${now})`);
  await db.execute(sql`insert into webhook_deliveries (team_id, endpoint_id, message_id, type, payload, status, created_at)
    select ${teamId}, e.id, ${`msg_${teamId}`}, 'standup.submitted', '{}', 'pending', ${now}
    from webhook_endpoints e where e.team_id = ${teamId}`);
  await db.execute(sql`insert into email_preferences (team_id, user_id, digest, updated_at)
    values (${teamId}, ${gone}, true, ${now})`);
  await db.execute(sql`insert into email_sends (team_id, key, kind, user_id, state, created_at, updated_at)
    values (${teamId}, ${`welcome:${gone}`}, 'welcome', ${gone}, 'sent', ${now}, ${now})`);
  await db.execute(
    sql`insert into email_digest_weeks (team_id, week_start, claimed_at) values (${teamId}, '2026-11-16', ${now})`,
  );
  await db.execute(sql`insert into chat_posts (key, team_id, channel, state, updated_at)
    values (${`post:${teamId}`}, ${teamId}, 'C0DEL', 'posted', ${now})`);
  await db.execute(
    sql`insert into chat_events (event_id, team_id, received_at) values (${`Ev${teamId}`}, ${teamId}, ${now})`,
  );
  await db.execute(
    sql`insert into dm_turns (team_id, user_id, run_id, updated_at) values (${teamId}, ${gone}, 1, ${now})`,
  );
  await db.execute(sql`insert into dm_questions (run_id, user_id, question_index, team_id, ts, created_at)
    values (1, ${gone}, 0, ${teamId}, '1795000000.000100', ${now})`);
  await db.execute(sql`insert into early_answers (team_id, schedule_id, user_id, local_date, answers, questions, submitted_at, updated_at)
    values (${teamId}, ${scheduleId}, ${gone}, '2026-11-21', '["a","b","c"]', '[]', ${now}, ${now})`);
  await db.execute(sql`insert into anonymous_answers (team_id, schedule_id, standup_date, question_index, value)
    values (${teamId}, ${scheduleId}, '2026-11-20', 0, '4')`);
  await db.execute(sql`insert into blockers (team_id, schedule_id, user_id, text, opened_at, opened_date, last_reported_at, last_date)
    values (${teamId}, ${scheduleId}, ${gone}, 'blocked on z', ${now}, '2026-11-20', ${now}, '2026-11-20')`);
  await db.execute(sql`insert into oauth_grants (team_id, user_id, client_id, scopes, resource, created_at)
    values (${teamId}, ${gone}, 'mcpc_test', '["standups:read"]', 'http://localhost/mcp', ${now})`);
  await db.execute(sql`insert into oauth_tokens (token_hash, kind, grant_id, team_id, created_at, expires_at)
    select ${`hash_${teamId}`}, 'access', g.id, ${teamId}, ${now}, ${now} from oauth_grants g where g.team_id = ${teamId}`);
  await db.execute(sql`insert into ai_summaries (run_id, team_id, schedule_id, standup_date, status, created_at)
    select r.id, ${teamId}, ${scheduleId}, '2026-11-20', 'posted', ${now} from standup_runs r where r.team_id = ${teamId}`);
  await db.execute(sql`insert into ai_digest_summaries (team_id, schedule_id, week_start, status, created_at)
    values (${teamId}, ${scheduleId}, '2026-11-16', 'posted', ${now})`);
  await db.execute(sql`insert into llm_usage (team_id, day, tokens, calls) values (${teamId}, '2026-11-20', 100, 1)`);
  await db.execute(sql`insert into member_syncs (team_id, state) values (${teamId}, 'idle') on conflict do nothing`);
  await takeSlot(db, teamId, "chat.postMessage", SLACK_BUCKETS["chat.postMessage"], 0);
  await t.deps.queue.enqueue("members.sync", { teamId }, { startAfter: 3600 } as never);
  return cookie;
}

describe("deleting a workspace's data", async () => {
  const t: TestApp = await useTestApp();
  const adminA = await seedWorkspace(t, A, ADMIN);
  await seedWorkspace(t, B, "U0DELBADMIN");
  await t.addMember(A, "U0DELMEMBER");
  const memberA = await t.signIn(A, "U0DELMEMBER");
  const del = (cookie: string, payload: unknown) =>
    t.inject({
      method: "DELETE",
      url: "/dashboard/api/workspace",
      headers: json(cookie, payload),
      payload: JSON.stringify(payload),
    });

  it("refuses members (403), no session (401), and a wrong or missing confirmation (400 naming confirm)", async () => {
    expect((await del(memberA, { confirm: `Team ${A}` })).statusCode).toBe(403);
    expect(
      (
        await t.inject({
          method: "DELETE",
          url: "/dashboard/api/workspace",
          headers: { "content-type": "application/json" },
          payload: "{}",
        })
      ).statusCode,
    ).toBe(401);
    for (const body of [{}, { confirm: `team ${A.toLowerCase()}` }, { confirm: 42 }, { confirm: "" }]) {
      const res = await del(adminA, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: expect.stringContaining("confirm") });
    }
    const malformed = await t.inject({
      method: "DELETE",
      url: "/dashboard/api/workspace",
      headers: { cookie: adminA, "content-type": "application/json" },
      payload: "{",
    });
    expect(malformed.statusCode).toBe(400);
    expect((await counts(t.deps.db, A)).members).toBeGreaterThan(0);
  });

  it("deletes every row of the workspace in every team_id table, drops its queued jobs, revokes the token, keeps the other", async () => {
    const tables = await teamTables(t.deps.db);
    const beforeA = await counts(t.deps.db, A);
    const beforeB = await counts(t.deps.db, B);
    // Seeded in (nearly) every table: the assertion below proves something for each of them.
    const empty = tables.filter((name) => beforeA[name] === 0);
    expect(empty).toEqual([]);
    expect(await queuedJobs(t.deps.db, A)).toBeGreaterThan(0);
    const jobsB = await queuedJobs(t.deps.db, B);
    expect(jobsB).toBeGreaterThan(0);

    const res = await del(adminA, { confirm: `  Team ${A} ` });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { deleted: boolean; rows: number; jobs: number; token_revoked: boolean };
    expect(body).toMatchObject({ deleted: true, token_revoked: true });
    expect(body.rows).toBe(Object.values(beforeA).reduce((a, b) => a + b, 0));
    expect(body.jobs).toBeGreaterThan(0);
    expect(String(res.headers["set-cookie"])).toMatch(/svc_session=;/);

    const afterA = await counts(t.deps.db, A);
    for (const table of tables) expect({ table, n: afterA[table] }).toEqual({ table, n: 0 });
    expect(await counts(t.deps.db, B)).toEqual(beforeB);
    expect(await queuedJobs(t.deps.db, A)).toBe(0);
    expect(await queuedJobs(t.deps.db, B)).toBe(jobsB);

    const revokes = t.fake.callsTo("auth.revoke");
    expect(revokes).toHaveLength(1);
    expect(revokes[0]?.teamId).toBe(A);

    // The session is gone with the data.
    expect((await t.inject({ method: "GET", url: "/dashboard/api/me", headers: { cookie: adminA } })).statusCode).toBe(
      401,
    );
  });

  it("jobs queued for the deleted workspace end quietly (no failure, no retry)", async () => {
    const q = t.deps.queue;
    await q.enqueue("members.sync", { teamId: A });
    await q.enqueue("standup.fanout", { teamId: A, runId: 1 } as never);
    await q.enqueue("kudos.notice", { teamId: A, key: "kn", channelId: "C0DEL", userId: GONE, text: "hi" } as never);
    await q.enqueue("celebrations.post", { teamId: A, kind: "birthday", postDate: "2026-03-14" } as never);
    await q.enqueue("rules.fire", { teamId: A, firingId: 1 } as never);
    await q.enqueue("email.send", { teamId: A, key: "welcome:x" } as never);
    await q.drain();
    const failed = await rows<{ name: string; state: string }>(
      t.deps.db,
      sql`select name, state from pgboss.job where data->>'teamId' = ${A} and state not in ('completed', 'cancelled')`,
    );
    expect(failed).toEqual([]);
    expect((await counts(t.deps.db, A)).members ?? 0).toBe(0);
  });
});

describe("deleting a removed member's data", async () => {
  const t: TestApp = await useTestApp();
  const adminA = await seedWorkspace(t, A, ADMIN);
  await seedWorkspace(t, B, "U0DELBADMIN");
  const gone = `${GONE}${A}`;
  const peer = `${PEER}${A}`;
  await t.addMember(A, "U0DELMEMBER");
  const memberA = await t.signIn(A, "U0DELMEMBER");
  const del = (cookie: string, userId: string) =>
    t.inject({ method: "DELETE", url: `/dashboard/api/members/${userId}/data`, headers: { cookie } });
  const personRows = async (teamId: string, userId: string) => {
    let n = 0;
    for (const { table, column } of personColumns()) {
      const [row] = await rows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from ${sql.identifier(table)} where team_id = ${teamId} and ${sql.identifier(column)} = ${userId}`,
      );
      n += row?.n ?? 0;
    }
    return n;
  };

  it("403 for members, 404 for unknown ids and other workspaces' members, 409 while active in Slack", async () => {
    expect((await del(memberA, gone)).statusCode).toBe(403);
    expect((await del(adminA, "U0NOBODY")).statusCode).toBe(404);
    expect((await del(adminA, `${GONE}${B}`)).statusCode).toBe(404);
    const active = await del(adminA, gone);
    expect(active.statusCode).toBe(409);
    expect(active.json()).toEqual({ error: expect.stringContaining("still active in Slack") });
  });

  it("deletes every row naming them (answers, participation, profile, time off, kudos both ways, e-mail), keeps everyone else's", async () => {
    await t.deps.db.execute(sql`update members set active = false where team_id = ${A} and user_id = ${gone}`);
    const otherB = await counts(t.deps.db, B);
    const peerBefore = await personRows(A, peer);
    const adminBefore = await personRows(A, ADMIN);
    expect(await personRows(A, gone)).toBeGreaterThan(8);

    const res = await del(adminA, gone);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { user_id: string; deleted: Record<string, number> };
    expect(body.user_id).toBe(gone);
    expect(body.deleted).toMatchObject({
      members: 1,
      responses: 1,
      run_participants: 1,
      profiles: 1,
      time_off: 1,
      kudos: 2,
      email_preferences: 1,
      email_sends: 1,
      celebration_asks: 1,
    });
    expect(await personRows(A, gone)).toBe(0);
    // The kudo the peer gave them and the one they gave the peer are gone; the peer's other kudo stays.
    expect(await personRows(A, peer)).toBe(peerBefore - 2);
    expect(await personRows(A, ADMIN)).toBe(adminBefore);
    expect(await counts(t.deps.db, B)).toEqual(otherB);
    const [answers] = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from responses where team_id = ${A} and user_id = ${ADMIN}`,
    );
    expect(answers?.n).toBe(1);

    // A second call: nothing left to find.
    expect((await del(adminA, gone)).statusCode).toBe(404);
  });

  it("stays deleted: a sync or a user_change with Slack still listing them as deleted stores nothing; back active, they are stored anew", async () => {
    t.fake.addUser(A, { id: gone, name: "gone", real_name: "Gone Person", email: "gone@del.test", deleted: true });
    await t.deps.queue.enqueue("members.sync", { teamId: A });
    await t.deps.queue.drain();
    await t.sendEvent(A, {
      type: "user_change",
      user: {
        id: gone,
        team_id: A,
        name: "gone",
        deleted: true,
        profile: { real_name: "Gone Person", email: "gone@del.test" },
      },
    });
    await t.app.settle();
    expect(await personRows(A, gone)).toBe(0);
    t.fake.addUser(A, { id: gone, name: "gone", real_name: "Gone Person", email: "gone@del.test" });
    await t.deps.queue.enqueue("members.sync", { teamId: A });
    await t.deps.queue.drain();
    const [back] = await rows<{ active: boolean }>(
      t.deps.db,
      sql`select active from members where team_id = ${A} and user_id = ${gone}`,
    );
    expect(back?.active).toBe(true);
  });
});
