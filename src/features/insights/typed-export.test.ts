import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { parseCsv } from "../../../test/support/csv.ts";
import { createSchedule } from "../../../test/support/factories.ts";
import { seedTypedRun, seedTypedWeek, TYPED_QUESTIONS } from "../../../test/support/typed-answers.ts";
import { CSV_COLUMNS } from "./export.routes.ts";

const TEAM = "T0TYPEX";
const ANONYMOUS = TYPED_QUESTIONS[7]!.text;

describe("typed answers in the CSV export and reports; anonymous answers in neither", async () => {
  const t = await useTestApp();
  t.clock.set("2026-03-06T18:00:00Z");
  await t.installTeam(TEAM);
  for (const u of ["U0AMY", "U0BOB", "U0CID", "U0DAN"]) await t.addMember(TEAM, u, { realName: u.slice(2) });
  const cookie = await t.signIn(TEAM, "U0TYPEXADMIN");
  const standup = await createSchedule(t.deps.db, t.clock, { teamId: TEAM, channelId: "C0TYPED", time: "09:00" });
  await seedTypedWeek(t.deps.db, TEAM, standup);
  // A response whose anonymous answer was (wrongly) kept as text: no export or view by person may show it.
  const leaky = await seedTypedRun(t.deps.db, {
    teamId: TEAM,
    scheduleId: standup,
    date: "2026-03-09",
    answers: { U0DAN: { values: ["a", "b", "none", 3, "Infra", true, ["Jira"], null] } },
  });
  await t.deps.db.execute(
    sql`update responses set answers = jsonb_set(answers, '{7}', '"secret workload 1"'),
               answer_values = jsonb_set(answer_values, '{7}', '1')
        where run_id = ${leaky}`,
  );
  t.clock.set("2026-03-09T18:00:00Z");

  it("CSV: the spec's columns first and unchanged, typed answers as their text, anonymous answers empty", async () => {
    const res = await t.inject({
      method: "GET",
      url: "/dashboard/api/export/csv?from=2026-03-02&to=2026-03-09",
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("secret workload");
    const [header, ...body] = parseCsv(res.body);
    expect(header!.slice(0, CSV_COLUMNS.length)).toEqual([...CSV_COLUMNS]);
    expect(header!.slice(CSV_COLUMNS.length, CSV_COLUMNS.length + 2)).toEqual(["schedule_id", "standup_name"]);
    expect(header).toContain("answer_8");
    const col = (name: string) => header!.indexOf(name);
    expect(body).toHaveLength(12);
    const amyMonday = body.find((r) => r[col("standup_date")] === "2026-03-02" && r[col("user_id")] === "U0AMY")!;
    expect(amyMonday[col("yesterday")]).toBe("Worked on the API");
    expect(amyMonday[col("blockers")]).toBe("none");
    expect(
      ["question_4", "answer_4", "answer_5", "answer_6", "answer_7", "question_8", "answer_8"].map(
        (c) => amyMonday[col(c)],
      ),
    ).toEqual(["How confident are you, 1–5?", "3", "Frontend", "Yes", "Slack, GitHub", ANONYMOUS, ""]);
    const cidMonday = body.find((r) => r[col("standup_date")] === "2026-03-02" && r[col("user_id")] === "U0CID")!;
    expect([cidMonday[col("answer_6")], cidMonday[col("answer_7")]]).toEqual(["", ""]);
    // No row has an answer to the anonymous question.
    expect(body.map((r) => r[col("answer_8")])).toEqual(body.map(() => ""));
  });

  it("reports: answer_values beside the answers' text; never an anonymous answer", async () => {
    const res = await t.inject({
      method: "GET",
      url: `/dashboard/api/reports?from=2026-03-02&to=2026-03-09&schedule_id=${standup}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("secret workload");
    type Row = {
      user_id: string;
      standup_date: string;
      answers: { question: string; answer: string }[];
      answer_values: unknown[] | null;
    };
    const rows = res.json().standups as Row[];
    const amy = rows.find((r) => r.user_id === "U0AMY" && r.standup_date === "2026-03-02")!;
    expect(amy.answer_values).toEqual([null, null, null, 3, "Frontend", true, ["Slack", "GitHub"], null]);
    expect(amy.answers.slice(3).map((a) => a.answer)).toEqual(["3", "Frontend", "Yes", "Slack, GitHub", ""]);
    const dan = rows.find((r) => r.user_id === "U0DAN")!;
    expect(dan.answers[7]).toEqual({ question: ANONYMOUS, answer: "", anonymous: true });
    expect(amy.answers[7]).toEqual({ question: ANONYMOUS, answer: "", anonymous: true });
    expect(amy.answers[3]).toEqual({ question: "How confident are you, 1–5?", answer: "3" });
    expect(dan.answer_values![7]).toBeNull();
  });
});
