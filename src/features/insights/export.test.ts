import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { parseCsv } from "../../../test/support/csv.ts";
import { createSchedule, seedRun } from "../../../test/support/factories.ts";
import { csvCell } from "./csv.ts";

describe("CSV export", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-04T12:00:00Z");
  await t.installTeam("T0CSV");
  await t.addMember("T0CSV", "U0QUOTE", { realName: 'Ann "The Hammer" O\'Neil, PhD' });
  await t.addMember("T0CSV", "U0EMOJI", { realName: "Zoë 🚀" });
  const cookie = await t.signIn("T0CSV", "U0CSVADMIN");
  const scheduleId = await createSchedule(t.deps.db, t.clock, { teamId: "T0CSV", channelId: "C0CSV", time: "09:00" });
  await seedRun(t.deps.db, {
    teamId: "T0CSV",
    scheduleId,
    date: "2026-03-03",
    asked: ["U0QUOTE", "U0EMOJI"],
    answers: {
      U0QUOTE: {
        answers: ["line one\nline two", 'said "hi", then left', '=HYPERLINK("http://evil")'],
        mood: "😀",
        submittedAt: new Date("2026-03-03T09:15:30Z"),
      },
      U0EMOJI: {
        answers: ["+1 to the plan", "@everyone meeting", "-"],
        mood: "😫",
        submittedAt: new Date("2026-03-03T09:20:00Z"),
      },
    },
  });
  await seedRun(t.deps.db, {
    teamId: "T0CSV",
    scheduleId,
    date: "2026-01-10",
    asked: ["U0EMOJI"],
    answers: { U0EMOJI: { answers: ["old", "old", "none"] } },
  });

  const download = (query = "") =>
    t.inject({ method: "GET", url: `/dashboard/api/export/csv${query}`, headers: { cookie } });

  it("sends the spec's columns in order, then the standup and each question with its answer", async () => {
    const res = await download("?from=2026-03-01&to=2026-03-04");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="standups-2026-03-01-2026-03-04.csv"');
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual([
      "standup_date",
      "user_id",
      "real_name",
      "yesterday",
      "today",
      "blockers",
      "mood",
      "submitted_at",
      "schedule_id",
      "standup_name",
      "question_1",
      "answer_1",
      "question_2",
      "answer_2",
      "question_3",
      "answer_3",
      "mood_score",
    ]);
    expect(rows).toHaveLength(3);
    const emoji = rows.find((r) => r[1] === "U0EMOJI")!;
    expect(emoji.slice(8)).toEqual([
      scheduleId,
      "Standup in a channel",
      "What did you complete yesterday?",
      "'+1 to the plan",
      "What are you working on today?",
      "'@everyone meeting",
      "Any blockers?",
      "-",
      "1",
    ]);
  });

  it("quotes commas, quotes and newlines, keeps emoji, and guards formula cells", async () => {
    const res = await download("?from=2026-03-01&to=2026-03-04");
    const rows = parseCsv(res.body);
    const quote = rows.find((r) => r[1] === "U0QUOTE")!;
    expect(quote.slice(0, 8)).toEqual([
      "2026-03-03",
      "U0QUOTE",
      'Ann "The Hammer" O\'Neil, PhD',
      "line one\nline two",
      'said "hi", then left',
      '\'=HYPERLINK("http://evil")',
      "😀",
      "2026-03-03T09:15:30Z",
    ]);
    const emoji = rows.find((r) => r[1] === "U0EMOJI")!;
    expect(emoji.slice(2, 7)).toEqual(["Zoë 🚀", "'+1 to the plan", "'@everyone meeting", "-", "😫"]);
    expect(res.rawPayload.toString("utf8")).toContain("Zoë 🚀");
  });

  it("without dates exports the last 30 days; a date range may be long", async () => {
    const recent = parseCsv((await download()).body);
    expect(recent.slice(1).map((r) => r[0])).toEqual(["2026-03-03", "2026-03-03"]);
    const res = await download("?from=2024-01-01&to=2026-03-04");
    expect(res.statusCode).toBe(200);
    expect(parseCsv(res.body)).toHaveLength(4);
  });

  it.each(["from=2026-02-30", "from=2026-03-05&to=2026-03-01", "to=x"])("answers 400 JSON for %s", async (q) => {
    const res = await download(`?${q}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  it("csvCell follows RFC 4180 and the formula guard for each leading character", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('a"b')).toBe('"a""b"');
    expect(csvCell("a\r\nb")).toBe('"a\r\nb"');
    for (const lead of ["=", "+", "-", "@", "\t", "\r"])
      expect(csvCell(`${lead}x`).startsWith(`'${lead}`) || csvCell(`${lead}x`).startsWith(`"'${lead}`)).toBe(true);
    expect(csvCell(null)).toBe("");
  });
});
