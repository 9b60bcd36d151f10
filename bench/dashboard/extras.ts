/**
 * What a team lead's workspace holds beside the answers, where a dashboard page reads it: profiles with birthdays
 * and start dates for every member, a year of kudos, time off (past, current, upcoming), holidays, Celebrations
 * settings, webhook endpoints with a month of deliveries, rules, and the blockers table (issue 25) filled from
 * the seeded answers that reported one (the history import stores answers only; the latest of each member and
 * standup stays open when it is recent, the rest are resolved). Written in bulk (insert … select over
 * generate_series), like the seed's history, deterministically from the member numbers; then ANALYZE.
 */
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/db/client.ts";

export interface ExtrasOptions {
  teamId: string;
  members: number;
  /** The seed's last day (YYYY-MM-DD): kudos and deliveries end there. */
  today: string;
  scheduleIds: string[];
}

/** Rows written, by table. */
export async function seedExtras(url: string, o: ExtrasOptions): Promise<Record<string, number>> {
  const database = await openDatabase(url, { poolMax: 1 });
  const db = database.db;
  const team = o.teamId;
  const n = o.members;
  const uid = (expr: string) => sql.raw(`'U' || lpad((${expr})::text, 8, '0')`);
  const counts: Record<string, number> = {};
  const run = async (table: string, q: ReturnType<typeof sql>) => {
    const r = await db.execute(q).catch((err: unknown) => {
      // drizzle's message is the query; PostgreSQL's reason is the cause.
      throw new Error(`seeding ${table}: ${String((err as { cause?: unknown }).cause ?? err)}`);
    });
    counts[table] = (counts[table] ?? 0) + Number((r as { rowCount?: number }).rowCount ?? 0);
  };
  try {
    await run(
      "profiles",
      sql`insert into profiles (team_id, user_id, birth_month, birth_day, start_date, role, location, ask_me_about,
                                celebrate, set_by_admin, updated_at)
          select ${team}, ${uid("i")}, 1 + (i * 7) % 12, 1 + (i * 13) % 28,
                 (${o.today}::date - (30 + (i * 37) % 2500))::date, 'Engineer ' || (i % 7), 'City ' || (i % 40),
                 'Topic ' || (i % 90), i % 10 <> 0, i % 3 = 0, now()
          from generate_series(1, ${n}) as i
          on conflict do nothing`,
    );
    // ~40 kudos a day for a year, between members of all schedules.
    await run(
      "kudos",
      sql`insert into kudos (team_id, from_user, to_user, message, channel_id, source, source_key, given_on, created_at)
          select ${team}, ${uid(`1 + (k * 7919) % ${n}`)}, ${uid(`1 + (k * 104729 + 17) % ${n}`)},
                 'Thanks for the help with item ' || k, 'C0BENCH1', 'command', 'cmd:bench-' || k,
                 (${o.today}::date - (k / 40))::date,
                 (${o.today}::date - (k / 40))::timestamptz + make_interval(secs => 32400 + (k % 40) * 600)
          from generate_series(0, 365 * 40 - 1) as k
          where (k * 7919) % ${n} <> (k * 104729 + 17) % ${n}`,
    );
    // One range in ten members: half in the past year, a quarter now, a quarter upcoming.
    await run(
      "time_off",
      sql`insert into time_off (team_id, user_id, start_date, end_date, reason, created_by, created_at, updated_at)
          select ${team}, ${uid("i")}, d, d + (i % 10), 'Vacation', ${uid("i")}, now(), now()
          from generate_series(1, ${n}, 10) as i,
               lateral (select case i % 4 when 0 then ${o.today}::date - (i % 3)
                                          when 1 then ${o.today}::date + 5 + i % 60
                                          else ${o.today}::date - 20 - i % 300 end as d) as s`,
    );
    await run(
      "holidays",
      sql`insert into holidays (team_id, date, name, skips_standups)
          select ${team}, (${o.today}::date - 330 + h * 33)::date, 'Holiday ' || h, true
          from generate_series(0, 11) as h on conflict do nothing`,
    );
    await run(
      "workspace_calendars",
      sql`insert into workspace_calendars (team_id, timezone, working_days, updated_at)
          values (${team}, 'UTC', 'mon,tue,wed,thu,fri', now()) on conflict do nothing`,
    );
    await run(
      "celebration_settings",
      sql`insert into celebration_settings (team_id, channel_id, post_time, birthdays, anniversaries, admins, updated_at)
          values (${team}, 'C0BENCH1', '09:00', true, true, '[]'::jsonb, now()) on conflict do nothing`,
    );
    await run(
      "webhook_endpoints",
      sql`insert into webhook_endpoints (team_id, url, events, secret_enc, created_by, created_at, last_success_at)
          select ${team}, 'https://hooks.example.test/' || e, array['standup.completed', 'response.submitted'],
                 'bench-secret', ${uid("1")}, now() - interval '60 days', now()
          from generate_series(1, 3) as e`,
    );
    // A response.submitted delivery per answer of the last 30 days (≈ members × 0.85 × 22), to every endpoint.
    await run(
      "webhook_deliveries",
      sql`insert into webhook_deliveries (team_id, endpoint_id, message_id, type, status, attempts, last_attempt_at,
                                          last_status_code, created_at, finished_at)
          select ${team}, e.id, 'msg_bench_' || r.id, 'response.submitted', 'delivered', 1, r.submitted_at, 200,
                 r.submitted_at, r.submitted_at
          from webhook_endpoints e
          join responses r on r.team_id = e.team_id and r.standup_date > ${o.today}::date - 30
          where e.team_id = ${team}`,
    );
    const triggers: [string, number | null][] = [
      ["blocker_reported", null],
      ["participation_below", 60],
      ["mood_below", 2.5],
      ["blocker_open_days", 3],
      ["participation_below", 40],
    ];
    for (const [i, [trigger, threshold]] of triggers.entries()) {
      await run(
        "rules",
        sql`insert into rules (team_id, trigger, trigger_threshold, action, action_target, schedule_id, active,
                               created_by, created_at, updated_at)
            values (${team}, ${trigger}, ${threshold}, ${i % 2 ? "dm_admin" : "post_to_channel"},
                    ${i % 2 ? "U00000001" : "C0BENCH1"}, ${o.scheduleIds[i % o.scheduleIds.length] ?? null}, true,
                    'U00000001', now(), now())`,
      );
    }
    // Every answer that reported a blocker is an item; per member and standup the newest stays open when it is
    // from the last 14 days (blockers_open_uq allows one open item each), older ones were resolved a day later.
    await run(
      "blockers",
      sql`insert into blockers (team_id, schedule_id, user_id, text, status, opened_at, opened_date,
                                first_response_id, last_response_id, last_reported_at, last_date,
                                resolved_at, resolved_by, resolved_via)
          select team_id, schedule_id, user_id, coalesce(nullif(blockers, ''), 'blocked'),
                 case when newest and standup_date > ${o.today}::date - 14 then 'open' else 'resolved' end,
                 submitted_at, standup_date, id, id, submitted_at, standup_date,
                 case when newest and standup_date > ${o.today}::date - 14 then null else submitted_at + interval '1 day' end,
                 case when newest and standup_date > ${o.today}::date - 14 then null else user_id end,
                 case when newest and standup_date > ${o.today}::date - 14 then null else 'answer' end
          from (select r.*, row_number() over (partition by schedule_id, user_id order by standup_date desc) = 1 as newest
                from responses r where team_id = ${team} and has_blocker) b`,
    );
    for (const t of ["profiles", "kudos", "time_off", "holidays", "webhook_endpoints", "webhook_deliveries", "rules"]) {
      await db.execute(sql`analyze ${sql.identifier(t)}`);
    }
    await db.execute(sql`vacuum (analyze) blockers`);
  } finally {
    await database.close();
  }
  return counts;
}
