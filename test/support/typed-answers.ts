import type { AnswerValue, QuestionDetail } from "../../src/contract/questions.ts";
import { valueText } from "../../src/contract/questions.ts";
import type { Db } from "../../src/db/client.ts";
import { anonymousAnswers, responses, runParticipants, standupRuns } from "../../src/db/schema.ts";
import { isActiveBlocker } from "../../src/features/standups/index.ts";

/**
 * Typed and anonymous answers written the way the Slack side stores them (issue 25): the run keeps its
 * question_details, `answers` holds every answer's text ("" for anonymous questions), `answer_values` the typed
 * values (null for text and anonymous questions), and each anonymous answer is a row of its own without the member.
 */

/** A standup with every kind of question: three text ones (the blocker third), four typed, one anonymous number. */
export const TYPED_QUESTIONS: QuestionDetail[] = [
  { text: "What did you complete yesterday?", type: "text", required: true, anonymous: false },
  { text: "What are you working on today?", type: "text", required: true, anonymous: false },
  { text: "Any blockers?", type: "text", required: true, anonymous: false },
  { text: "How confident are you, 1–5?", type: "number", min: 1, max: 5, required: true, anonymous: false },
  {
    text: "Which area?",
    type: "single_choice",
    options: ["Frontend", "Backend", "Infra"],
    required: true,
    anonymous: false,
  },
  { text: "Pairing today?", type: "yes_no", required: false, anonymous: false },
  {
    text: "Tools used?",
    type: "multiple_choice",
    options: ["Slack", "Jira", "GitHub"],
    required: false,
    anonymous: false,
  },
  { text: "How is your workload, 1–5?", type: "number", min: 1, max: 5, required: true, anonymous: true },
];

export interface TypedAnswer {
  /** One per question: a text answer as a string for text questions, the typed value otherwise. */
  values: AnswerValue[];
  mood?: string | null;
}

/** A closed run on `date` asking `details`; named answers per member and the anonymous values per question index. */
export async function seedTypedRun(
  db: Db,
  s: {
    teamId: string;
    scheduleId: string;
    date: string;
    details?: QuestionDetail[];
    answers: Record<string, TypedAnswer>;
    anonymous?: Record<number, AnswerValue[]>;
  },
): Promise<number> {
  const details = s.details ?? TYPED_QUESTIONS;
  const at = new Date(`${s.date}T09:00:00Z`);
  const [run] = await db
    .insert(standupRuns)
    .values({
      teamId: s.teamId,
      scheduleId: s.scheduleId,
      localDate: s.date,
      channelId: "C0TYPED",
      questions: details.map((d) => d.text),
      questionDetails: details,
      blockerQuestion: 3,
      scheduleTz: "UTC",
      startsAt: at,
      remindAt: at,
      closesAt: new Date(at.getTime() + 8 * 3600_000),
      status: "closed",
      closedAt: new Date(at.getTime() + 8 * 3600_000),
      createdAt: at,
    })
    .returning({ id: standupRuns.id });
  const runId = run!.id;
  const users = Object.keys(s.answers);
  if (users.length > 0) {
    await db
      .insert(runParticipants)
      .values(users.map((userId) => ({ runId, userId, teamId: s.teamId, status: "answered" as const, createdAt: at })));
  }
  for (const [i, [userId, a]] of Object.entries(s.answers).entries()) {
    const texts = details.map((d, q) => {
      const v = a.values[q] ?? null;
      if (d.anonymous) return "";
      return d.type === "text" ? (typeof v === "string" ? v : "") : valueText(v);
    });
    const values = details.map((d, q) => (d.type === "text" || d.anonymous ? null : (a.values[q] ?? null)));
    await db.insert(responses).values({
      teamId: s.teamId,
      scheduleId: s.scheduleId,
      runId,
      userId,
      standupDate: s.date,
      answers: texts,
      answerValues: values,
      yesterday: texts[0] ?? "",
      today: texts[1] ?? "",
      blockers: texts[2] ?? "",
      mood: a.mood ?? null,
      hasBlocker: isActiveBlocker(texts[2] ?? ""),
      submittedAt: new Date(at.getTime() + (i + 1) * 60_000),
    });
  }
  for (const [index, values] of Object.entries(s.anonymous ?? {})) {
    if (values.length === 0) continue;
    await db.insert(anonymousAnswers).values(
      values.map((value) => ({
        teamId: s.teamId,
        scheduleId: s.scheduleId,
        standupDate: s.date,
        questionIndex: Number(index),
        value: value as NonNullable<AnswerValue>,
      })),
    );
  }
  return runId;
}

const ans = (
  confidence: number,
  area: string,
  pairing: boolean | null,
  tools: string[] | null,
  workedOn = "Worked on the API",
): TypedAnswer => ({
  values: [workedOn, "Today: tests", "none", confidence, area, pairing, tools, null],
  mood: "🙂",
});

/**
 * Monday 2 to Friday 6 March 2026 of TYPED_QUESTIONS, by U0AMY, U0BOB and U0CID. Confidence: 11 answers summing to 42
 * (average 3.82, 1 to 5; per day 4, 3, 5, 1, 4). Area: Frontend 7, Backend 3, Infra 1. Pairing: Yes 4, No 5.
 * Tools: Slack 5, Jira 2, GitHub 4 (9 answered). Anonymous workload (question 7): 4 answers on Monday
 * (3, 4, 4, 5), 1 on Tuesday (2), 5 on Wednesday (1–5).
 */
export async function seedTypedWeek(
  db: Db,
  teamId: string,
  scheduleId: string,
  /** Five dates to use instead of 2 to 6 March 2026 (a browser test seeds the days before the real today). */
  dates?: string[],
): Promise<void> {
  const week: [string, Record<string, TypedAnswer>, AnswerValue[]][] = [
    [
      "2026-03-02",
      {
        U0AMY: ans(3, "Frontend", true, ["Slack", "GitHub"]),
        U0BOB: ans(4, "Backend", false, ["Jira"]),
        U0CID: ans(5, "Frontend", null, null),
      },
      [3, 4, 4, 5],
    ],
    ["2026-03-03", { U0AMY: ans(2, "Infra", true, ["GitHub"]), U0BOB: ans(4, "Frontend", true, []) }, [2]],
    [
      "2026-03-04",
      {
        U0AMY: ans(5, "Frontend", false, ["Slack"]),
        U0BOB: ans(5, "Frontend", false, ["Slack"]),
        U0CID: ans(5, "Frontend", false, ["Slack"]),
      },
      [1, 2, 3, 4, 5],
    ],
    ["2026-03-05", { U0AMY: ans(1, "Backend", null, null) }, []],
    [
      "2026-03-06",
      {
        U0AMY: ans(4, "Frontend", true, ["GitHub"]),
        U0BOB: ans(4, "Backend", false, ["Slack", "Jira", "GitHub"]),
      },
      [],
    ],
  ];
  for (const [i, [date, answers, anonymous]] of week.entries()) {
    await seedTypedRun(db, { teamId, scheduleId, date: dates?.[i] ?? date, answers, anonymous: { 7: anonymous } });
  }
}
