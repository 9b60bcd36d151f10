import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type TestApp, useTestApp } from "../../../test/support/app.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { type Executor, rows } from "../../db/client.ts";
import { NOT_PERSONAL, PERSONAL_DATA } from "./personal-data.registry.ts";

const A = "T0PDA";
const B = "T0PDB";
const GONE = "U0PDGONE";
const PEER = "U0PDPEER";
const ADMIN = "U0PDADMIN";

/** Column names that suggest a person; such a column must be covered by the registry or listed in NOT_PERSONAL. */
const PERSON_LIKE = /user|_by$|admin|member|owner|author|installer|recipient|target|person|people|assignee|giver/;
const TEXTUAL = "data_type in ('text', 'character varying', 'ARRAY', 'json', 'jsonb')";

async function textualColumns(ex: Executor, schema: string) {
  return rows<{ table_name: string; column_name: string; has_team: boolean }>(
    ex,
    sql`select c.table_name, c.column_name,
          exists (select 1 from information_schema.columns k where k.table_schema = c.table_schema
                  and k.table_name = c.table_name and k.column_name = 'team_id') as has_team
        from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = ${schema} and t.table_type = 'BASE TABLE' and ${sql.raw(TEXTUAL)}
        order by 1, 2`,
  );
}

/** Every text, array and JSON column (public schema and pg-boss's job table) that still holds `id` for the team. */
async function placesHolding(ex: Executor, teamId: string, id: string): Promise<string[]> {
  const found: string[] = [];
  const scan = async (schema: string, table: string, column: string, scope: ReturnType<typeof sql>) => {
    const [hit] = await rows<{ n: number }>(
      ex,
      sql`select count(*)::int as n from ${sql.identifier(schema)}.${sql.identifier(table)}
          where ${scope} and position(${id} in ${sql.identifier(column)}::text) > 0`,
    );
    if (hit?.n) found.push(`${schema === "public" ? "" : `${schema}.`}${table}.${column}`);
  };
  for (const c of await textualColumns(ex, "public")) {
    await scan("public", c.table_name, c.column_name, c.has_team ? sql`team_id = ${teamId}` : sql`true`);
  }
  for (const c of (await textualColumns(ex, "pgboss")).filter((c) => c.table_name === "job")) {
    await scan("pgboss", "job", c.column_name, sql`data->>'teamId' = ${teamId}`);
  }
  return found;
}

const places = PERSONAL_DATA.flatMap((f) => f.places);

describe("the personal data registry", async () => {
  const t: TestApp = await useTestApp();

  it("covers every column whose name suggests a person, names only real columns, and only team_id tables", async () => {
    const columns = await textualColumns(t.deps.db, "public");
    const covered = new Set(places.map((p) => `${p.table}.${p.column}`));
    const uncovered = columns
      .map((c) => `${c.table_name}.${c.column_name}`)
      .filter((name) => PERSON_LIKE.test(name.split(".")[1] ?? "") && !covered.has(name) && !(name in NOT_PERSONAL));
    expect(uncovered).toEqual([]);
    const existing = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
    expect([...covered].filter((name) => !existing.has(name))).toEqual([]);
    // Deleting a workspace deletes every row of every team_id table: that covers a registered place only there.
    const teamTables = new Set(columns.filter((c) => c.has_team).map((c) => c.table_name));
    expect(places.map((p) => p.table).filter((table) => !teamTables.has(table))).toEqual([]);
  });
});

/** One member named in every feature of workspace A (and, as Enterprise Grid allows, in workspace B too). */
async function seed(t: TestApp): Promise<string> {
  const db = t.deps.db;
  const now = t.clock.now();
  const later = new Date(Date.now() + 3_600_000); // pg-boss compares start times with the database's clock
  await t.installTeam(A, { name: "Team A", installer: GONE });
  await t.installTeam(B, { name: "Team B", installer: ADMIN });
  await t.addMember(A, ADMIN, { role: "admin" });
  await t.addMember(A, PEER);
  await t.addMember(B, GONE);
  const gone = await t.signIn(A, GONE);
  for (const url of ["/dashboard/api/mcp/keys", "/dashboard/api/feed-token"]) {
    expect((await t.inject({ method: "POST", url, headers: { cookie: gone } })).statusCode).toBeLessThan(300);
  }
  const scheduleId = await createSchedule(db, t.clock, { teamId: A, channelId: "C0PD", time: "09:00" });
  await seedRun(db, {
    teamId: A,
    scheduleId,
    date: "2026-11-20",
    asked: [GONE, PEER, ADMIN],
    answers: {
      [GONE]: { answers: ["mine", "mine", "none"], mood: "good" },
      [PEER]: { answers: [`paired with <@${GONE}>`, "ship", `waiting on <@${GONE}|gone>`] },
    },
  });
  const [run] = await rows<{ id: number }>(db, sql`select id::int from standup_runs where team_id = ${A}`);
  const runId = Number(run?.id);
  await db.execute(sql`update run_participants set draft = ${JSON.stringify([["1.0", `ask <@${GONE}>`]])}::jsonb
    where run_id = ${runId} and user_id = ${ADMIN}`);
  for (const u of [GONE, PEER]) {
    await db.execute(
      sql`insert into dm_turns (team_id, user_id, run_id, updated_at) values (${A}, ${u}, ${runId}, ${now})`,
    );
    await db.execute(sql`insert into dm_questions (run_id, user_id, question_index, team_id, post_key, ts, created_at)
      values (${runId}, ${u}, 0, ${A}, ${`run:${runId}:ask:${u}`}, '1795000000.000100', ${now})`);
  }
  // A delivery of theirs still waiting, and one of PEER's that mentions them.
  const delivery = (user: string, text: string) =>
    JSON.stringify({ team_id: A, event: { type: "message", channel_type: "im", user, text, ts: "1.1" } });
  for (const [id, user, text] of [
    ["EvPdGone", GONE, "my answer"],
    ["EvPdPeer", PEER, `pairing with <@${GONE}>`],
  ] as const) {
    await db.execute(sql`insert into chat_events (event_id, team_id, received_at, kind, type, payload, state, retry_at)
      values (${id}, ${A}, ${now}, 'event', 'message', ${delivery(user, text)}, 'pending', ${now})`);
  }
  const keys = (u: string) => [
    `run:${runId}:ask:${u}`,
    `run:${runId}:remind:${u}`,
    `celebrations:ask:${A}:${u}:2026-11-20T09:00:00.000Z`,
    `webhook:1:disabled:1795000000000:${u}`,
  ];
  for (const key of [...keys(GONE), ...keys(PEER)]) {
    await db.execute(sql`insert into chat_posts (key, team_id, channel, state, updated_at)
      values (${key}, ${A}, 'D0PD', 'sent', ${now})`);
  }
  for (const team of [A, B]) {
    await db.execute(sql`insert into kudos (team_id, from_user, to_user, message, channel_id, source, source_key, given_on, created_at)
      values (${team}, ${GONE}, ${PEER}, 'thanks', 'C0PD', 'command', 'cmd:1', '2026-11-20', ${now}),
             (${team}, ${PEER}, ${GONE}, 'great', 'C0PD', 'command', 'cmd:2', '2026-11-20', ${now}),
             (${team}, ${PEER}, ${ADMIN}, ${`you and <@${GONE}>`}, 'C0PD', 'command', 'cmd:3', '2026-11-20', ${now})`);
    await db.execute(sql`insert into celebration_settings (team_id, channel_id, admins, updated_at)
      values (${team}, 'C0PD', ${JSON.stringify([GONE, PEER])}::jsonb, ${now})`);
    await t.deps.queue.enqueue("standup.ask", { teamId: team, runId, userId: GONE }, { startAfter: later });
  }
  await db.execute(sql`insert into profiles (team_id, user_id, birth_month, birth_day, updated_at)
    values (${A}, ${GONE}, 3, 14, ${now}), (${A}, ${PEER}, 4, 1, ${now})`);
  await db.execute(sql`insert into time_off (team_id, user_id, start_date, end_date, created_by, created_at, updated_at)
    values (${A}, ${GONE}, '2026-12-01', '2026-12-05', ${ADMIN}, ${now}, ${now}),
           (${A}, ${PEER}, '2026-12-01', '2026-12-05', ${GONE}, ${now}, ${now})`);
  await db.execute(sql`insert into celebration_posts (team_id, kind, post_date, user_ids, claimed_at)
    values (${A}, 'birthday', '2026-03-14', ${JSON.stringify([GONE, PEER])}::jsonb, ${now})`);
  await db.execute(sql`insert into celebration_asks (team_id, user_id, asked_at) values (${A}, ${GONE}, ${now})`);
  await db.execute(sql`insert into rules (team_id, trigger, action, action_target, created_by, created_at, updated_at)
    values (${A}, 'blocker_reported', 'dm_admin', ${GONE}, ${ADMIN}, ${now}, ${now}),
           (${A}, 'blocker_reported', 'post_to_channel', 'C0PD', ${GONE}, ${now}, ${now}),
           (${A}, 'blocker_reported', 'dm_admin', ${ADMIN}, ${ADMIN}, ${now}, ${now})`);
  await db.execute(sql`insert into webhook_endpoints (team_id, url, events, secret_enc, created_by, created_at)
    values (${A}, 'https://hooks.example.com/x', array['standup.submitted'], 'enc', ${GONE}, ${now})`);
  const payloads: [string, unknown][] = [
    ["gone-answer", { user: { id: GONE, name: "Gone" } }],
    ["gone-blocker", { blockers: [{ user_id: PEER }, { user_id: GONE }] }],
    ["peer-kudo", { from: { id: PEER }, to: { id: ADMIN }, message: `you and <@${GONE}>` }],
    ["peer-answer", { user: { id: PEER, name: "Peer" } }],
  ];
  for (const [id, data] of payloads) {
    const payload = JSON.stringify({ id, type: "x", created_at: now.toISOString(), team_id: A, data });
    await db.execute(sql`insert into webhook_deliveries (team_id, endpoint_id, message_id, type, payload, status, created_at)
      select ${A}, e.id, ${id}, 'x', ${payload}, 'pending', ${now} from webhook_endpoints e where e.team_id = ${A}`);
  }
  await db.execute(
    sql`insert into email_preferences (team_id, user_id, digest, updated_at) values (${A}, ${GONE}, true, ${now})`,
  );
  await db.execute(sql`insert into email_sends (team_id, key, kind, user_id, state, created_at, updated_at)
    values (${A}, ${`digest:2026-11-16:${GONE}`}, 'digest', ${GONE}, 'queued', ${now}, ${now})`);
  const q = t.deps.queue;
  const at = { startAfter: later };
  await q.enqueue("standup.remind", { teamId: A, runId, userId: GONE }, at);
  await q.enqueue("standup.ask", { teamId: A, runId, userId: PEER }, at);
  await q.enqueue("kudos.notice", { teamId: A, key: "kn", channelId: "C0PD", userId: GONE, text: "no" }, at);
  await q.enqueue("celebrations.ask", { teamId: A, userId: GONE, key: keys(GONE)[2] ?? "" }, at);
  await q.enqueue("email.send", { teamId: A, key: `digest:2026-11-16:${GONE}` }, at);
  await q.enqueue("email.send", { teamId: A, key: `reinstall:1795000000000:${GONE}` }, at);
  // A finished job keeps its payload for a week.
  await q.enqueue("standup.remind", { teamId: A, runId: runId + 1, userId: GONE }, at);
  await db.execute(sql`update pgboss.job set state = 'completed', completed_on = now()
    where data->>'teamId' = ${A} and (data->>'runId')::int = ${runId + 1}`);
  // Jobs about their rows that do not name them: they must end quietly once the rows are gone.
  const [response] = await rows<{ id: number }>(db, sql`select id::int from responses where user_id = ${GONE}`);
  await q.enqueue("standup.reply", { teamId: A, responseId: Number(response?.id) });
  return t.signIn(A, ADMIN);
}

describe("deleting a removed member's data, everywhere", async () => {
  const t: TestApp = await useTestApp();
  const admin = await seed(t);
  const db = t.deps.db;

  it("leaves their id in no text, array or JSON column of the workspace nor in its jobs; others' data stays", async () => {
    expect((await placesHolding(db, A, GONE)).length).toBeGreaterThan(20);
    const inB = await placesHolding(db, B, GONE);
    await db.execute(sql`update members set active = false where team_id = ${A} and user_id = ${GONE}`);

    const res = await t.inject({
      method: "DELETE",
      url: `/dashboard/api/members/${GONE}/data`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { deleted: Record<string, number>; changed: Record<string, number>; jobs: number };
    expect(await placesHolding(db, A, GONE)).toEqual([]);
    expect(await placesHolding(db, B, GONE)).toEqual(inB);

    expect(body.deleted).toMatchObject({
      members: 1,
      sessions: 1,
      responses: 1,
      run_participants: 1,
      kudos: 2,
      chat_posts: 4,
      rules: 1,
      webhook_deliveries: 2,
      celebration_asks: 1,
      email_sends: 1,
    });
    expect(body.changed).toMatchObject({
      "installations.installer_user_id": 1,
      "mcp_keys.created_by": 1,
      "feed_tokens.created_by": 1,
      "celebration_settings.admins": 1,
      "celebration_posts.user_ids": 1,
      "rules.created_by": 1,
      "time_off.created_by": 1,
      "webhook_endpoints.created_by": 1,
      "responses.answers": 1,
      "responses.blockers": 1,
      "run_participants.draft": 1,
      "kudos.message": 1,
      "webhook_deliveries.payload": 1,
    });
    expect(body.jobs).toBe(7);

    // What belongs to others stays, with them taken out.
    const [peer] = await rows<{ blockers: string; answers: string[] }>(
      db,
      sql`select blockers, answers from responses where team_id = ${A} and user_id = ${PEER}`,
    );
    expect(peer).toEqual({
      blockers: "waiting on @former member",
      answers: ["paired with @former member", "ship", "waiting on @former member"],
    });
    const waiting = await rows<{ event_id: string; payload: string }>(
      db,
      sql`select event_id, payload from chat_events where team_id = ${A} and payload is not null`,
    );
    expect(waiting.map((e) => e.event_id)).toEqual(["EvPdPeer"]);
    expect(JSON.parse(waiting[0]!.payload).event.text).toBe("pairing with @former member");
    const [settings] = await rows<{ admins: string[] }>(
      db,
      sql`select admins from celebration_settings where team_id = ${A}`,
    );
    expect(settings?.admins).toEqual([PEER]);
    const kept = await rows<{ n: number }>(
      db,
      sql`select (select count(*)::int from chat_posts where team_id = ${A} and key like ${`%${PEER}%`})
               + (select count(*)::int from rules where team_id = ${A})
               + (select count(*)::int from webhook_deliveries where team_id = ${A})
               + (select count(*)::int from time_off where team_id = ${A} and user_id = ${PEER})
               + (select count(*)::int from pgboss.job where data->>'userId' = ${PEER}) as n`,
    );
    expect(kept[0]?.n).toBe(4 + 2 + 2 + 1 + 1);

    // The jobs left about their deleted rows end quietly.
    await t.deps.queue.drain();
    const failed = await rows<{ name: string }>(
      db,
      sql`select name from pgboss.job where data->>'teamId' = ${A} and state in ('failed', 'retry')`,
    );
    expect(failed).toEqual([]);
  });

  it("deleting the workspace drops every job that names it and is not running, finished ones included", async () => {
    const res = await t.inject({
      method: "DELETE",
      url: "/dashboard/api/workspace",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ confirm: "Team A" }),
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { jobs: number }).jobs).toBe(1);
    const [left] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from pgboss.job where data->>'teamId' = ${A}`,
    );
    expect(left?.n).toBe(0);
    expect((await placesHolding(db, B, GONE)).length).toBeGreaterThan(0);
  });
});
