import { get, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { parseCsv } from "../../../test/support/csv.ts";
import { rows } from "../../db/client.ts";
import { responses, schedules, standupRuns } from "../../db/schema.ts";
import { crlfRecords, looksLikeFormula } from "./csv.ts";
import { copyCsv } from "./export.copy.ts";
import { csvChunks } from "./export.routes.ts";
import type { Filters } from "./filters.repo.ts";
import { namesFor } from "./responses.presenter.ts";

const TEAM = "T0CPY";

/** Every kind of text the CSV must carry unchanged or guard: quotes, commas, newlines, non-BMP, formula starts. */
const TRICKY = [
  "=SUM(A1)",
  "+1",
  "-1",
  "@x",
  "\tTab-led",
  "\rCR-led",
  'said "hi", then left',
  "comma, here",
  "line one\nline two",
  "crlf\r\ninside",
  "Zoë 🚀 𝔘𝔭𝔟𝔢𝔞𝔱 👩‍💻",
  "",
  "'already quoted",
  "  spaces around  ",
  "back\\slash \\N",
  "\\.",
  '"',
  ",",
  "=",
];

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string, "utf8"));
  return Buffer.concat(chunks);
}

/** A year's export over a real socket, answered (status and headers) but not yet read. */
function startDownload(port: number, cookie: string): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) => {
    get(
      `http://127.0.0.1:${port}/dashboard/api/export/csv?from=2026-01-01&to=2026-12-31`,
      { headers: { cookie } },
      resolve,
    ).on("error", reject);
  });
}

describe("CSV export through COPY (PostgreSQL) and keyset pages (embedded)", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-20T12:00:00Z");
  await t.installTeam(TEAM);
  await t.installTeam("T0OTHERCPY");
  t.fake.addChannel(TEAM, { id: "C0NAMED", name: "eng-daily", members: [] });
  await t.addMember(TEAM, "U0QUOTE", { realName: 'Ann "The Hammer" O\'Neil, PhD' });
  await t.addMember(TEAM, "U0EMOJI", { realName: "Zoë 🚀 𝔘" });
  await t.addMember(TEAM, "U0FORMULA", { realName: "@admin" });
  await t.addMember(TEAM, "U0EMPTY", { realName: "" });
  // U0GONE has answers but no member row (real_name ""); U0OTHER answers in another workspace.
  const cookie = await t.signIn(TEAM, "U0CPYADMIN");
  const now = t.clock.now();

  const SIX = ["=What shipped?", "Plans, today", "", 'Any "blockers"?', "Line\nbreak question", "Mood words"];
  await t.deps.db.insert(schedules).values(
    [
      { id: "S0UNNAMED", teamId: TEAM, channelId: "C0NAMED", questions: SIX, name: "" },
      { id: "S0SPACED", teamId: TEAM, channelId: "C0B", questions: ["a", "b", "c"], name: '  Design, "sync"\u00a0\n' },
      { id: "S0PLUS", teamId: TEAM, channelId: "C0GONE", questions: ["q"], name: "+Plus standup", deletedAt: now },
      { id: "S0BLANK", teamId: TEAM, channelId: "C0GONE", questions: ["q"], name: " \u3000 " },
      { id: "S0OTHER", teamId: "T0OTHERCPY", channelId: "C0X", questions: ["q"], name: "Other" },
    ].map((s) => ({
      ...s,
      scheduleTime: "09:00",
      scheduleTz: "UTC",
      scheduleDays: "mon,tue,wed,thu,fri",
      createdAt: now,
      updatedAt: now,
    })),
  );

  // Runs: one per schedule and date, plus one of a schedule whose row is gone (its channel comes from the run).
  const runSpecs: { schedule: string; team?: string; channel: string; questions: string[]; date: string }[] = [
    { schedule: "S0UNNAMED", channel: "C0NAMED", questions: SIX, date: "2026-03-02" },
    { schedule: "S0UNNAMED", channel: "C0NAMED", questions: SIX, date: "2026-03-03" },
    { schedule: "S0SPACED", channel: "C0B", questions: ["a", "b", "c"], date: "2026-03-03" },
    { schedule: "S0PLUS", channel: "C0GONE", questions: ["-q"], date: "2026-03-04" },
    { schedule: "S0BLANK", channel: "C0GONE", questions: [], date: "2026-03-05" },
    { schedule: "S0MISSING", channel: "C0NAMED", questions: ["Only one"], date: "2026-03-05" },
    { schedule: "S0OTHER", team: "T0OTHERCPY", channel: "C0X", questions: ["q"], date: "2026-03-03" },
  ];
  const runIds = new Map<string, number>();
  for (const r of runSpecs) {
    const [row] = await t.deps.db
      .insert(standupRuns)
      .values({
        teamId: r.team ?? TEAM,
        scheduleId: r.schedule,
        localDate: r.date,
        channelId: r.channel,
        questions: r.questions,
        scheduleTz: "UTC",
        startsAt: new Date(`${r.date}T09:00:00Z`),
        closesAt: new Date(`${r.date}T17:00:00Z`),
        status: "closed",
        createdAt: now,
      })
      .returning({ id: standupRuns.id });
    runIds.set(`${r.schedule}/${r.date}`, row!.id);
  }

  let n = 0;
  const answer = (
    schedule: string,
    date: string,
    userId: string,
    answers: unknown[],
    extra: { mood?: string | null; yesterday?: string; today?: string; blockers?: string; team?: string } = {},
  ) => {
    n += 1;
    return {
      teamId: extra.team ?? TEAM,
      scheduleId: schedule,
      runId: runIds.get(`${schedule}/${date}`)!,
      userId,
      standupDate: date,
      answers: answers as string[],
      yesterday: extra.yesterday ?? String(answers[0] ?? ""),
      today: extra.today ?? String(answers[1] ?? ""),
      blockers: extra.blockers ?? String(answers[2] ?? ""),
      mood: extra.mood === undefined ? "😀" : extra.mood,
      submittedAt: new Date(Date.parse(`${date}T09:15:30.250Z`) + n * 61_001),
    };
  };
  const values = [
    // All six questions answered with tricky text, a seventh answer beyond the run's questions.
    answer("S0UNNAMED", "2026-03-02", "U0QUOTE", TRICKY.slice(0, 7)),
    answer("S0UNNAMED", "2026-03-02", "U0EMOJI", TRICKY.slice(7, 13), { mood: null }),
    answer("S0UNNAMED", "2026-03-02", "U0FORMULA", TRICKY.slice(13, 19), {
      yesterday: "=1+2",
      today: "-",
      blockers: "@here\ttab",
    }),
    // Fewer answers than questions, an answer that is not a string, an empty answer.
    answer("S0UNNAMED", "2026-03-03", "U0QUOTE", ["only", null, 7, ""], { mood: "-" }),
    answer("S0UNNAMED", "2026-03-03", "U0GONE", ["no member row"]),
    answer("S0UNNAMED", "2026-03-03", "U0EMPTY", []),
    answer("S0SPACED", "2026-03-03", "U0QUOTE", ["x", "y", "z"], { mood: "+" }),
    answer("S0SPACED", "2026-03-03", "U0EMOJI", TRICKY.slice(8, 11)),
    answer("S0PLUS", "2026-03-04", "U0EMOJI", ["=deleted schedule"]),
    answer("S0BLANK", "2026-03-05", "U0QUOTE", ["a", "b"]),
    answer("S0MISSING", "2026-03-05", "U0EMOJI", ["run without schedule"]),
    answer("S0OTHER", "2026-03-03", "U0OTHER", ["=other workspace"], { team: "T0OTHERCPY" }),
  ];
  await t.deps.db.insert(responses).values(values);

  const channels = await namesFor(t.deps, TEAM);
  const pool = t.deps.database.pool;

  const keysetCsv = async (from: string, to: string, f: Filters = {}) =>
    collect(Readable.from(csvChunks(t.deps.db, TEAM, from, to, f, channels)));
  const download = async (query: string) => {
    const res = await t.inject({ method: "GET", url: `/dashboard/api/export/csv?${query}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };

  const cases: { name: string; query: string; from: string; to: string; f?: Filters }[] = [
    { name: "everything", query: "from=2026-01-01&to=2026-12-31", from: "2026-01-01", to: "2026-12-31" },
    {
      name: "one standup",
      query: "from=2026-01-01&to=2026-12-31&schedule_id=S0UNNAMED",
      from: "2026-01-01",
      to: "2026-12-31",
      f: { scheduleId: "S0UNNAMED" },
    },
    {
      name: "one member",
      query: "from=2026-03-03&to=2026-03-05&user_id=U0EMOJI",
      from: "2026-03-03",
      to: "2026-03-05",
      f: { userId: "U0EMOJI" },
    },
    { name: "a window of one day", query: "from=2026-03-03&to=2026-03-03", from: "2026-03-03", to: "2026-03-03" },
    { name: "no rows", query: "from=2025-01-01&to=2025-01-31", from: "2025-01-01", to: "2025-01-31" },
  ];

  it.each(cases)("gives the same bytes on every path: $name", async (c) => {
    const keyset = await keysetCsv(c.from, c.to, c.f);
    // The route's bytes: COPY on PostgreSQL, keyset pages on the embedded database.
    const viaHttp = await download(c.query);
    expect(viaHttp.toString("utf8")).toBe(keyset.toString("utf8"));
    expect(viaHttp.equals(keyset)).toBe(true);
    if (pool) {
      const copied = await collect(await copyCsv(pool, TEAM, c.from, c.to, c.f, channels));
      expect(copied.toString("utf8")).toBe(keyset.toString("utf8"));
      expect(copied.equals(keyset)).toBe(true);
    }
  });

  it("writes what the keyset path writes, cell by cell (checked against the data, on both databases)", async () => {
    const csv = (await download("from=2026-01-01&to=2026-12-31")).toString("utf8");
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.split("\r\n")[0]).toBe(
      "\ufeffstandup_date,user_id,real_name,yesterday,today,blockers,mood,submitted_at,schedule_id,standup_name," +
        Array.from({ length: 7 }, (_, i) => `question_${i + 1},answer_${i + 1}`).join(",") +
        ",mood_score",
    );
    const table = parseCsv(csv);
    expect(table).toHaveLength(1 + values.length - 1);
    expect(table.some((r) => r.includes("U0OTHER"))).toBe(false);
    const guard = (s: string) => (looksLikeFormula(s) ? `'${s}` : s);
    const first = table[1]!;
    expect(first.slice(0, 10)).toEqual([
      "2026-03-02",
      "U0QUOTE",
      'Ann "The Hammer" O\'Neil, PhD',
      "'=SUM(A1)",
      "'+1",
      "-1",
      "😀",
      values[0]!.submittedAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
      "S0UNNAMED",
      "#eng-daily standup",
    ]);
    expect(first.slice(10)).toEqual([
      ...[...SIX.map((q, i) => q || `Question ${i + 1}`), "Question 7"].flatMap((q, i) => [
        guard(q),
        guard(TRICKY[i]!),
      ]),
      "5",
    ]);
    const emoji = table[2]!;
    expect(emoji.slice(1, 7)).toEqual([
      "U0EMOJI",
      "Zoë 🚀 𝔘",
      "comma, here",
      "line one\nline two",
      "crlf\r\ninside",
      "",
    ]);
    expect(emoji.slice(-3)).toEqual(["", "", ""]);
    expect(table[3]!.slice(2, 6)).toEqual(["'@admin", "'=1+2", "-", "'@here\ttab"]);
    const sparse = table[4]!;
    expect(sparse.slice(6, 7)).toEqual(["-"]);
    expect(sparse.slice(10, 18)).toEqual([
      "'=What shipped?",
      "only",
      "Plans, today",
      "",
      "Question 3",
      "",
      'Any "blockers"?',
      "",
    ]);
    // A mood that is not one of the scale's emoji has no score.
    expect(sparse.slice(18)).toEqual(["Line\nbreak question", "", "Mood words", "", "", "", ""]);
    expect(table.find((r) => r[1] === "U0GONE")!.slice(2, 3)).toEqual([""]);
    const byStandup = table.slice(1).map((r) => r[9]);
    expect(byStandup).toEqual([
      "#eng-daily standup",
      "#eng-daily standup",
      "#eng-daily standup",
      "#eng-daily standup",
      "#eng-daily standup",
      "#eng-daily standup",
      'Design, "sync"',
      'Design, "sync"',
      "'+Plus standup",
      "Standup in a channel",
      "#eng-daily standup",
    ]);
    expect(table.find((r) => r[8] === "S0PLUS")!.slice(10, 12)).toEqual(["'-q", "'=deleted schedule"]);
  });

  it("crlfRecords ends records with CRLF, not the line feeds inside quoted cells, however the bytes are split", async () => {
    const input = 'h1,h2\na,"x\ny",b\n"q""\n",c\n"",""""\nlast\n';
    const want = 'h1,h2\r\na,"x\ny",b\r\n"q""\n",c\r\n"",""""\r\nlast\r\n';
    const bytes = Buffer.from(input);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const out = await collect(Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]).pipe(crlfRecords()));
      expect(out.toString()).toBe(want);
    }
    const single = await collect(Readable.from([...bytes].map((b) => Buffer.from([b]))).pipe(crlfRecords()));
    expect(single.toString()).toBe(want);
    // The prefix (the byte order mark) goes first, once, and alone when nothing follows.
    const bom = await collect(Readable.from([bytes.subarray(0, 5), bytes.subarray(5)]).pipe(crlfRecords("\ufeff")));
    expect(bom.toString()).toBe(`\ufeff${want}`);
    expect((await collect(Readable.from([]).pipe(crlfRecords("\ufeff")))).toString()).toBe("\ufeff");
  });

  it("a client that goes away mid-download leaves no connection behind (the next download works)", async () => {
    // On PostgreSQL about 30 MB of CSV: more than the socket buffers between the database, the app and the client
    // hold, so the COPY is still running while the client pauses. (The embedded database only needs a download to abort.)
    const bigRows = pool ? 5000 : 1000;
    await t.deps.db.execute(sql`
      insert into responses (team_id, schedule_id, run_id, user_id, standup_date, answers, yesterday, today, blockers, submitted_at)
      select ${TEAM}, 'S0SPACED', ${runIds.get("S0SPACED/2026-03-03")!}, 'U0BIG' || g, date '2026-02-01',
             jsonb_build_array(repeat('x', 1200) || g, repeat('y', 1200), repeat('z', 1200)), repeat('x', 1200), repeat('y', 1200), '', now()
      from generate_series(1, ${bigRows}::int) g`);
    await t.app.server.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.server.address() as AddressInfo).port;
    const copies = async () =>
      pool
        ? (
            await rows<{ n: number }>(
              t.deps.db,
              sql`select count(*)::int as n from pg_stat_activity
                  where datname = current_database() and query ilike 'copy (%' and pid <> pg_backend_pid()`,
            )
          )[0]!.n
        : 0;
    // On PostgreSQL more aborted downloads than the pool has connections; the embedded database has one connection.
    const attempts = pool ? (pool.options.max ?? 10) + 2 : 2;
    for (let i = 0; i < attempts; i++) {
      const res = await startDownload(port, cookie);
      expect(res.statusCode).toBe(200);
      const firstChunk = await new Promise<Buffer>((resolve) => res.once("data", resolve));
      expect(firstChunk.length).toBeGreaterThan(0);
      res.pause();
      // The download is under way and held back by the paused client: on PostgreSQL, by one COPY on the server.
      if (pool) expect(await copies()).toBe(1);
      res.destroy();
      await expect.poll(copies, { timeout: 10_000 }).toBe(0);
      if (pool) await expect.poll(() => pool.totalCount - pool.idleCount, { timeout: 10_000 }).toBe(0);
    }
    const csv = (await download("from=2026-01-01&to=2026-12-31")).toString("utf8");
    expect(csv.match(/,U0BIG\d+,/g)).toHaveLength(bigRows);
    expect(csv.endsWith("run without schedule,,,,,,,,,,,,,5\r\n")).toBe(true);
  });

  it("more downloads at once than COPY may hold connections for still all arrive, the rest by keyset pages", async () => {
    if (!t.app.server.server.listening) await t.app.server.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.server.address() as AddressInfo).port;
    const bigRows = (
      await rows<{ n: number }>(t.deps.db, sql`select count(*)::int as n from responses where user_id like 'U0BIG%'`)
    )[0]!.n;
    expect(bigRows).toBeGreaterThan(0);
    const copies = async () =>
      (
        await rows<{ n: number }>(
          t.deps.db,
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and query ilike 'copy (%' and state = 'active' and pid <> pg_backend_pid()`,
        )
      )[0]!.n;
    const slots = pool ? Math.max(1, Math.floor((pool.options.max ?? 10) / 4)) : 0;
    // Held: each paused after its first bytes, so a COPY stays open for each that got one.
    const held: IncomingMessage[] = [];
    for (let i = 0; i < slots + 2; i++) {
      const res = await startDownload(port, cookie);
      expect(res.statusCode).toBe(200);
      await new Promise<Buffer>((resolve) => res.once("data", resolve));
      res.pause();
      held.push(res);
    }
    if (pool) expect(await copies()).toBe(slots);
    // One more, read to its end while the others wait: the same file.
    const csv = (await download("from=2026-01-01&to=2026-12-31")).toString("utf8");
    expect(csv.match(/,U0BIG\d+,/g)).toHaveLength(bigRows);
    // The held ones finish too, and every COPY slot comes back.
    const whole = await Promise.all(
      held.map(async (res) => {
        res.resume();
        const chunks: Buffer[] = [];
        for await (const c of res) chunks.push(c as Buffer);
        return Buffer.concat(chunks).length;
      }),
    );
    for (const n of whole) expect(n).toBeGreaterThan(bigRows * 3600);
    if (pool) {
      await expect.poll(copies, { timeout: 10_000 }).toBe(0);
      await expect.poll(() => pool.totalCount - pool.idleCount, { timeout: 10_000 }).toBe(0);
    }
  });
});
