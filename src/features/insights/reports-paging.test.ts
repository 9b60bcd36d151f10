import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";

/**
 * /reports pages by keyset through a big window: 1,000 members × 30 days in two standups, written in a few
 * INSERT … SELECT statements. Many answers share a submitted_at, so the id has to break ties.
 */
const TEAM = "T0PAGE";
const MEMBERS = 1000;
const FROM = "2026-03-02";
const TODAY = "2026-03-31";
const S1 = "SPAGEA00001";
const S2 = "SPAGEB00002";

type Row = { user_id: string; schedule_id: string; standup_date: string; submitted_at: string };
type Page = { standups: Row[]; next_cursor: string | null; summary: { responses: number } };
const keyOf = (r: Row) => `${r.schedule_id}|${r.user_id}|${r.standup_date}`;

describe("reports pages by keyset", async () => {
  const t = await useTestApp();
  t.clock.set(`${TODAY}T20:00:00Z`);
  await t.installTeam(TEAM);
  const cookie = await t.signIn(TEAM, `U${TEAM.slice(1)}ADMIN`);
  const db = t.deps.db;
  await db.execute(sql`
    insert into members (team_id, user_id, real_name, created_at, updated_at)
    select ${TEAM}, 'U' || lpad(i::text, 6, '0'), 'Member ' || i, now(), now() from generate_series(1, ${MEMBERS}) i`);
  await db.execute(sql`
    insert into schedules (id, team_id, channel_id, schedule_time, schedule_tz, schedule_days, questions, created_at, updated_at)
    values (${S1}, ${TEAM}, 'C0PAGEA', '09:00', 'UTC', 'mon,tue,wed,thu,fri,sat,sun', '["a","b","c"]', now(), now()),
           (${S2}, ${TEAM}, 'C0PAGEB', '09:00', 'UTC', 'mon,tue,wed,thu,fri,sat,sun', '["a","b","c"]', now(), now())`);
  // Every day a run per standup; today's are still open.
  await db.execute(sql`
    insert into standup_runs (team_id, schedule_id, local_date, channel_id, questions, schedule_tz, starts_at, remind_at,
                              closes_at, status, created_at)
    select ${TEAM}, s.id, d::date, s.channel_id, s.questions, 'UTC', d + time '09:00', d + time '11:00',
           d + time '23:59', case when d::date = ${TODAY}::date then 'open' else 'closed' end, d + time '09:00'
    from generate_series(${FROM}::timestamp, ${TODAY}::timestamp, interval '1 day') d cross join schedules s
    where s.team_id = ${TEAM}`);
  // Fresh statistics, so the planner joins 30,000 participants by hash, not row by row.
  await db.execute(sql`analyze`);
  // Odd members in the first standup, even ones in the second; one in seven does not answer on a day.
  await db.execute(sql`
    insert into run_participants (run_id, user_id, team_id, status, created_at)
    select run.id, m.user_id, ${TEAM}, 'asked', run.starts_at
    from standup_runs run join members m on m.team_id = run.team_id and m.user_id ~ '^U[0-9]{6}$'
      and (substr(m.user_id, 2)::int % 2 = 1) = (run.schedule_id = ${S1})
    where run.team_id = ${TEAM}`);
  await db.execute(sql`
    insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, yesterday, today, blockers,
                           has_blocker, submitted_at)
    select ${TEAM}, run.schedule_id, run.id, p.user_id, run.local_date, '["y","t","none"]', 'y' || p.user_id, 't', 'none',
           false, run.starts_at + make_interval(mins => substr(p.user_id, 2)::int % 40)
    from run_participants p join standup_runs run on run.id = p.run_id
    where run.team_id = ${TEAM} and (substr(p.user_id, 2)::int + (run.local_date - date '2026-01-01')) % 7 <> 0
    order by random()`);
  await db.execute(sql`analyze`);
  const expected = await rows<{ n: number }>(db, sql`select count(*)::int as n from responses where team_id = ${TEAM}`);
  const total = expected[0]!.n;

  const get = (query: string) =>
    t.inject({ method: "GET", url: `/dashboard/api/reports?${query}`, headers: { cookie } });

  /** Every page from the first to the one whose next_cursor is null; `between` runs after each page. */
  async function walk(query: string, between: (page: number) => Promise<void> = async () => {}) {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`${query}${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page;
      pages.push(page);
      cursor = page.next_cursor;
      await between(pages.length);
    } while (cursor);
    return pages;
  }

  it("walks 1,000 members × 30 days with no duplicate and no gap while answers keep coming in", async () => {
    expect(total).toBeGreaterThan(25_000);
    const before = await rows<{ key: string }>(
      db,
      sql`select schedule_id || '|' || user_id || '|' || standup_date::text as key from responses
          where team_id = ${TEAM}
          order by standup_date desc, submitted_at, id`,
    );
    // Between pages, the members who skipped today answer now, and late answers arrive for older days.
    const late = await rows<{ run_id: string; user_id: string; date: string; schedule_id: string }>(
      db,
      sql`select p.run_id::text, p.user_id, run.local_date::text as date, run.schedule_id
          from run_participants p join standup_runs run on run.id = p.run_id
          left join responses r on r.run_id = p.run_id and r.user_id = p.user_id
          where run.team_id = ${TEAM} and r.id is null order by run.local_date desc, p.user_id limit 400`,
    );
    const insertLate = async (page: number) => {
      for (const l of late.slice((page - 1) * 16, page * 16)) {
        await db.execute(sql`
          insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, submitted_at)
          values (${TEAM}, ${l.schedule_id}, ${l.run_id}, ${l.user_id}, ${l.date}, '[]', ${t.clock.now().toISOString()})`);
      }
    };
    const pages = await walk("days=30&limit=1000", insertLate);
    expect(pages.length).toBe(Math.ceil(total / 1000));
    expect(pages.slice(0, -1).every((p) => p.standups.length === 1000)).toBe(true);
    expect(pages[0]!.summary.responses).toBe(total);
    const seen = pages.flatMap((p) => p.standups.map(keyOf));
    const original = new Set(before.map((b) => b.key));
    const seenOriginal = seen.filter((k) => original.has(k));
    // Every answer that existed when the walk began, once each and in order.
    expect(seenOriginal).toEqual(before.map((b) => b.key));
    expect(new Set(seen).size).toBe(seen.length);
  }, 120_000);

  it("pages a standup and a member by their filters, each page in order", async () => {
    const pages = await walk(`days=30&limit=7&schedule_id=${S2}&user_id=U000002`);
    const all = pages.flatMap((p) => p.standups);
    const [{ n }] = (await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from responses where team_id = ${TEAM} and schedule_id = ${S2} and user_id = 'U000002'`,
    )) as [{ n: number }];
    expect(all).toHaveLength(n);
    expect(new Set(all.map(keyOf)).size).toBe(n);
    expect(all.every((r) => r.schedule_id === S2 && r.user_id === "U000002")).toBe(true);
    const dates = all.map((r) => r.standup_date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(pages[0]!.summary.responses).toBe(n);
  });

  it("refuses a limit outside 1 to 1,000 and a cursor it did not give out", async () => {
    for (const q of ["limit=0", "limit=1001", "limit=abc", "limit=-1", "limit=2.5"]) {
      const res = await get(`days=7&${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error).toMatch(/limit/);
    }
    const forged = [
      "abc",
      "not+base64/",
      Buffer.from("2026-03-31|yesterday|1").toString("base64url"),
      Buffer.from("2026-02-30|2026-03-31T09:00:00.000000Z|1").toString("base64url"),
      // JavaScript's Date.parse takes 30 February as 2 March; PostgreSQL would refuse it (once a 500).
      Buffer.from("2026-03-31|2026-02-30T09:00:00.000000Z|1").toString("base64url"),
      Buffer.from("2026-03-31|2026-03-31T09:00:00.000000Z|0").toString("base64url"),
      Buffer.from(JSON.stringify({ offset: 200 })).toString("base64url"),
    ];
    for (const cursor of forged) {
      const res = await get(`days=7&cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json().error).toMatch(/cursor/);
    }
  });
});
