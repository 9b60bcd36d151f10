import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { parseCsv } from "../../../test/support/csv.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { MOODS } from "../standups/index.ts";
import { csvCell, looksLikeFormula } from "./csv.ts";
import { copyCsv } from "./export.copy.ts";
import { csvChunks } from "./export.routes.ts";
import { namesFor } from "./responses.presenter.ts";

const TEAM = "T0SHEET";

/** What a person types, and whether a spreadsheet could run it as a formula (so it must get a leading '). */
const FORMULAS: [text: string, guarded: boolean][] = [
  // Always a formula start.
  ["=1+2", true],
  ['=HYPERLINK("http://evil")', true],
  ["+1", true],
  ["+", true],
  ["@SUM(A1)", true],
  ["@everyone", true],
  ["\tTab-led", true],
  ["\r=1", true],
  // A dash followed at once by a name, reference, function or expression.
  ["-1+2", true],
  ["-A1", true],
  ["-SUM(A1:A3)", true],
  ["-sum(", true],
  ["-(1)", true],
  ['-"text"', true],
  ["-$B$2", true],
  ["-.5", true],
  ["-=1", true],
  ["-+1", true],
  ["-@x", true],
  ["-notes", true],
  ["-Zoë", true],
  ["-5-3", true],
  // A dash, then spaces or dashes, then a function call or a DDE link.
  ['- HYPERLINK("http://evil","x")', true],
  ["-- WEBSERVICE (A1)", true],
  ["-\tcmd(", true],
  ["- cmd|' /C calc'!A0", true],
  ["-cmd|' /C calc'!A0", true],
  // Plain text a person writes.
  ["-", false],
  ["--", false],
  ["---", false],
  ["- item", false],
  ["-- notes", false],
  ["- fix login (again)", false],
  ["- shipped 3 PRs, reviewed 2", false],
  ["-> done", false],
  ["-/-", false],
  ["-5", false],
  ["-3.5", false],
  ["-1,000", false],
  ["-10%", false],
  ["- 1+2 is not evaluated without a call", false],
  ["", false],
  ["plain", false],
  ["a = b + c", false],
  ["'already quoted", false],
  ["Fernández 🚀", false],
];

describe("CSV export for spreadsheets: byte order mark, mood_score, formula guard", async () => {
  const t = await useTestApp();
  t.clock.set("2026-05-06T12:00:00Z");
  await t.installTeam(TEAM);
  const cookie = await t.signIn(TEAM, "U0SHEETADMIN");
  await t.addMember(TEAM, "U0FERN", { realName: "Lucía Fernández" });
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0SHEET", time: "09:00" });

  // One member per mood of the scale and one without a mood, on one day.
  const moodUsers = [...MOODS.map((_, i) => `U0MOOD${i}`), "U0NOMOOD", "U0FERN"];
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId,
    date: "2026-05-04",
    asked: moodUsers,
    answers: Object.fromEntries(
      moodUsers.map((u, i) => [u, { answers: ["Fernández 🚀", "today", "none"], mood: MOODS[i] ?? null }]),
    ),
  });
  // One member per formula case on another day: the case is their "yesterday" answer. Answers are trimmed when
  // saved, so the tab- and CR-led cases are left to csvCell here (export.copy.test inserts them raw on both paths).
  const STORED = FORMULAS.filter(([text]) => text === text.trim());
  const formulaUsers = STORED.map((_, i) => `U0F${String(i).padStart(3, "0")}`);
  await seedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId,
    date: "2026-05-05",
    asked: formulaUsers,
    answers: Object.fromEntries(formulaUsers.map((u, i) => [u, { answers: [STORED[i]![0], "t", "b"] }])),
  });

  const download = async (query: string) => {
    const res = await t.inject({ method: "GET", url: `/dashboard/api/export/csv?${query}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };
  const collect = async (stream: Readable) => {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string, "utf8"));
    return Buffer.concat(chunks);
  };

  it("starts with the UTF-8 byte order mark, once, then the unchanged header", async () => {
    for (const query of ["from=2026-05-01&to=2026-05-06", "from=2025-01-01&to=2025-01-02"]) {
      const bytes = await download(query);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(bytes.subarray(3, 3 + 13).toString("utf8")).toBe("standup_date,");
      // One BOM only: no other chunk or path adds another.
      expect(bytes.indexOf(Buffer.from([0xef, 0xbb, 0xbf]), 1)).toBe(-1);
    }
    const text = (await download("from=2026-05-04&to=2026-05-04")).toString("utf8");
    expect(text).toContain("Lucía Fernández");
    expect(text).toContain("Fernández 🚀");
  });

  it("appends mood_score last: 😀 5 … 😫 1, empty without a mood", async () => {
    const [header, ...data] = parseCsv((await download("from=2026-05-04&to=2026-05-04")).toString("utf8"));
    expect(header!.slice(0, 8)).toEqual([
      "standup_date",
      "user_id",
      "real_name",
      "yesterday",
      "today",
      "blockers",
      "mood",
      "submitted_at",
    ]);
    expect(header!.at(-1)).toBe("mood_score");
    expect(header!.slice(8, -1)).toEqual([
      "schedule_id",
      "standup_name",
      "question_1",
      "answer_1",
      "question_2",
      "answer_2",
      "question_3",
      "answer_3",
    ]);
    const byUser = new Map(data.map((r) => [r[1], [r[6], r.at(-1)]]));
    expect(Object.fromEntries(byUser)).toEqual({
      U0MOOD0: ["😀", "5"],
      U0MOOD1: ["🙂", "4"],
      U0MOOD2: ["😐", "3"],
      U0MOOD3: ["😕", "2"],
      U0MOOD4: ["😫", "1"],
      U0NOMOOD: ["", ""],
      U0FERN: ["", ""],
    });
  });

  it.each(FORMULAS)("csvCell guards %j: %s", (text, guarded) => {
    expect(looksLikeFormula(text)).toBe(guarded);
    const cell = parseCsv(`${csvCell(text)}\r\n`)[0]?.[0] ?? "";
    expect(cell).toBe(guarded ? `'${text}` : text);
  });

  it("the export applies the same rule on every path (COPY on PostgreSQL, keyset pages)", async () => {
    const want = STORED.map(([text, guarded]) => (guarded ? `'${text}` : text));
    const yesterdays = (csv: Buffer) => {
      const rows = parseCsv(csv.toString("utf8")).slice(1);
      return formulaUsers.map((u) => rows.find((r) => r[1] === u)![3]);
    };
    const viaHttp = await download("from=2026-05-05&to=2026-05-05");
    expect(yesterdays(viaHttp)).toEqual(want);
    const channels = await namesFor(t.deps, TEAM);
    const keyset = await collect(Readable.from(csvChunks(t.deps.db, TEAM, "2026-05-05", "2026-05-05", {}, channels)));
    expect(yesterdays(keyset)).toEqual(want);
    const pool = t.deps.database.pool;
    if (pool) {
      const copied = await collect(await copyCsv(pool, TEAM, "2026-05-05", "2026-05-05", {}, channels));
      expect(copied.equals(keyset)).toBe(true);
    }
    expect(viaHttp.equals(keyset)).toBe(true);
  });
});
