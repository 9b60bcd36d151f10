import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { schedules } from "../../db/schema.ts";

/** Typed questions and answer_early_hours through the schedule API (issue 25). */

const STANDUPS = "/dashboard/api/standups";
const SCHEDULES = "/dashboard/api/schedules";
const VALID = { channel_id: "C0QTYPES", schedule_time: "09:30", schedule_tz: "Europe/Berlin" };
const text = (t: string) => ({ text: t, type: "text", required: true, anonymous: false });

describe("schedule API: typed questions and answering ahead", async () => {
  const t = await useTestApp();
  await t.installTeam("T0QTYPE");
  t.fake.addChannel("T0QTYPE", { id: "C0QTYPES", name: "qtypes", members: [] });
  const admin = await t.signIn("T0QTYPE", "U0QTYPEADMIN");

  function call(method: "GET" | "POST" | "PUT", url: string, payload?: unknown) {
    const headers = { cookie: admin, "content-type": "application/json" };
    if (payload === undefined) return t.inject({ method, url, headers: { cookie: admin } });
    return t.inject({ method, url, headers, payload: JSON.stringify(payload) });
  }
  async function create(body: Record<string, unknown>) {
    const res = await call("POST", STANDUPS, { ...VALID, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function storedRow(id: string) {
    const [row] = await t.deps.db.select().from(schedules).where(eq(schedules.id, id));
    return row!;
  }
  async function refused(body: Record<string, unknown>, message: string) {
    const res = await call("POST", STANDUPS, { ...VALID, ...body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
  }

  const typed = [
    "What did you do yesterday?",
    { text: " How confident are you? ", type: "number", min: 1, max: 5 },
    "Any blockers?",
    { text: "Which area?", type: "single_choice", options: [" Frontend ", "Backend", "Ops"], required: false },
    { text: "Where did you work?", type: "multiple_choice", options: ["Home", "Office"] },
    { text: "Pairing today?", type: "yes_no", anonymous: true },
    { text: "How do you feel?", type: "number", anonymous: true },
  ];
  const typedDetails = [
    text("What did you do yesterday?"),
    { text: "How confident are you?", type: "number", min: 1, max: 5, required: true, anonymous: false },
    text("Any blockers?"),
    {
      text: "Which area?",
      type: "single_choice",
      options: ["Frontend", "Backend", "Ops"],
      required: false,
      anonymous: false,
    },
    {
      text: "Where did you work?",
      type: "multiple_choice",
      options: ["Home", "Office"],
      required: true,
      anonymous: false,
    },
    { text: "Pairing today?", type: "yes_no", required: true, anonymous: true },
    { text: "How do you feel?", type: "number", min: null, max: null, required: true, anonymous: true },
  ];

  it("POST stores typed questions; every output keeps questions as texts and shows question_details in full", async () => {
    const body = await create({ questions: typed, answer_early_hours: 4 });
    expect(body.questions).toEqual(typedDetails.map((d) => d.text));
    expect(body.question_details).toEqual(typedDetails);
    expect(body.answer_early_hours).toBe(4);
    // The third question is text, so it stays the default blocker question.
    expect(body.blocker_question).toBe(3);
    const row = await storedRow(body.id);
    expect(row.questionDetails).toEqual(typedDetails);
    expect(row.questions).toEqual(typedDetails.map((d) => d.text));
    expect(row.answerEarlyHours).toBe(4);
    const listed = (await call("GET", SCHEDULES)).json().find((s: { id: string }) => s.id === body.id);
    expect(listed.question_details).toEqual(typedDetails);
    expect(listed.questions).toEqual(body.questions);
    expect(listed.answer_early_hours).toBe(4);
  });

  it("plain text questions (strings or objects) store no details; answer_early_hours defaults to 12", async () => {
    const body = await create({ questions: ["One?", { text: "Two?" }, { text: "Three?", type: "text" }] });
    expect(body.question_details).toEqual([text("One?"), text("Two?"), text("Three?")]);
    expect(body.answer_early_hours).toBe(12);
    const row = await storedRow(body.id);
    expect(row.questionDetails).toBeNull();
    expect(row.answerEarlyHours).toBe(12);
    // An optional text question is more than plain text: the details are kept.
    const optional = await create({ questions: ["One?", { text: "Two?", required: false }] });
    expect((await storedRow(optional.id)).questionDetails).toEqual([
      text("One?"),
      { text: "Two?", type: "text", required: false, anonymous: false },
    ]);
  });

  it("PUT round-trips typed questions, and only strings reset every question to text", async () => {
    const original = await create({});
    const typedPut = await call("PUT", `${SCHEDULES}/${original.id}`, { questions: typed, answer_early_hours: 0 });
    expect(typedPut.statusCode, typedPut.body).toBe(200);
    expect(typedPut.json()).toMatchObject({
      question_details: typedDetails,
      answer_early_hours: 0,
      blocker_question: 3,
    });
    // An edit that leaves the questions alone keeps their details.
    const renamed = await call("PUT", `${STANDUPS}/${original.id}`, { name: "Renamed" });
    expect(renamed.json().question_details).toEqual(typedDetails);
    expect(renamed.json().answer_early_hours).toBe(0);
    // What GET shows can be sent back as it is.
    const back = await call("PUT", `${STANDUPS}/${original.id}`, { questions: renamed.json().question_details });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().question_details).toEqual(typedDetails);

    const reset = await call("PUT", `${STANDUPS}/${original.id}`, { questions: ["A?", "B?", "C?"] });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().question_details).toEqual([text("A?"), text("B?"), text("C?")]);
    expect((await storedRow(original.id)).questionDetails).toBeNull();
  });

  it("the blocker question must be a text question that is not anonymous", async () => {
    await refused(
      { questions: typed, blocker_question: 2 },
      "blocker_question must point at a required text question that is not anonymous",
    );
    await refused(
      { questions: ["A?", { text: "B?", anonymous: true }], blocker_question: 2 },
      "blocker_question must point at a required text question that is not anonymous",
    );
    // By default the third question is the blocker question only when it can be.
    const numberThird = await create({ questions: ["A?", "B?", { text: "C?", type: "number" }] });
    expect(numberThird.blocker_question).toBeNull();
    const original = await create({ questions: ["A?", "B?", "Blockers?"] });
    expect(original.blocker_question).toBe(3);
    const put = await call("PUT", `${STANDUPS}/${original.id}`, { blocker_question: 4, questions: typed });
    expect(put.statusCode).toBe(400);
    expect(put.json().error).toContain("blocker_question must point at a required text question");
    // Making the blocker question typed without choosing another leaves the standup without one.
    const typedThird = await call("PUT", `${STANDUPS}/${original.id}`, {
      questions: ["A?", "B?", { text: "Blockers?", type: "yes_no" }],
    });
    expect(typedThird.statusCode, typedThird.body).toBe(200);
    expect(typedThird.json().blocker_question).toBeNull();
  });

  it("refuses bad questions with a 400 that names the field", async () => {
    const options = "options must be 2 to 10 distinct texts of at most 75 characters";
    const cases: [unknown, string][] = [
      [{ text: "Q?", type: "single_choice", options: ["Only"] }, `questions[1].${options}`],
      [{ text: "Q?", type: "multiple_choice" }, `questions[1].${options}`],
      [{ text: "Q?", type: "single_choice", options: ["A", "a"] }, `questions[1].${options}`],
      [{ text: "Q?", type: "single_choice", options: ["A", "x".repeat(76)] }, `questions[1].${options}`],
      [{ text: "Q?", type: "single_choice", options: Array.from({ length: 11 }, (_, i) => `O${i}`) }, options],
      [{ text: "Q?", type: "single_choice", options: ["A", ""] }, options],
      [{ text: "Q?", type: "text", options: ["A", "B"] }, "questions[1].options is only for single_choice"],
      [{ text: "Q?", type: "number", min: 5, max: 1 }, "questions[1].min must not be greater than questions[1].max"],
      [{ text: "Q?", type: "number", min: "1" }, "questions[1].min must be a number from -1000000000 to 1000000000"],
      [{ text: "Q?", type: "yes_no", max: 3 }, "questions[1].min and questions[1].max are only for number questions"],
      [{ text: "Q?", type: "rating" }, "questions[1].type must be one of text, single_choice, multiple_choice"],
      [{ text: "Q?", required: "yes" }, "questions[1].required must be true or false"],
      [{ text: "Q?", anonymous: 1 }, "questions[1].anonymous must be true or false"],
      [{ type: "number" }, "questions[1].text is required"],
      [{ text: "  " }, "questions[1].text must not be empty"],
      [{ text: "x".repeat(301) }, "questions[1].text must be at most 300 characters"],
      [42, "questions[1] must be a string or an object with a text"],
    ];
    for (const [item, message] of cases) await refused({ questions: ["First?", item] }, message);
    // The bounds of a number question are optional, and may be equal or decimal.
    const body = await create({ questions: [{ text: "N?", type: "number", min: 2.5, max: 2.5 }] });
    expect(body.question_details[0]).toMatchObject({ min: 2.5, max: 2.5 });
  });

  it("refuses answer_early_hours outside whole hours 0–16", async () => {
    const message = "answer_early_hours must be whole hours from 0 to 16";
    for (const bad of [-1, 17, 1.5, "12", null]) await refused({ answer_early_hours: bad }, message);
    expect((await create({ answer_early_hours: 16 })).answer_early_hours).toBe(16);
    const original = await create({});
    const res = await call("PUT", `${STANDUPS}/${original.id}`, { answer_early_hours: 17 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
  });

  it("documents question items and answer_early_hours in the OpenAPI document", async () => {
    const doc = (await t.inject({ method: "GET", url: "/openapi.json" })).json();
    const text = JSON.stringify(doc.paths["/dashboard/api/standups"].post);
    expect(text).toContain("answer_early_hours");
    expect(text).toContain("multiple_choice");
    expect(JSON.stringify(doc)).toContain("question_details");
  });

  it("every built-in template's typed questions create a standup that keeps them", async () => {
    const templates = (await call("GET", "/dashboard/api/templates")).json() as {
      name: string;
      questions: string[];
      question_details: { type: string }[];
    }[];
    const typedTemplates = templates.filter((tpl) => tpl.question_details.some((q) => q.type !== "text"));
    expect(typedTemplates.length).toBeGreaterThanOrEqual(3);
    for (const tpl of typedTemplates) {
      const created = await create({ questions: tpl.question_details, name: tpl.name.slice(0, 80) });
      expect(created.questions).toEqual(tpl.questions);
      expect(created.question_details).toEqual(tpl.question_details);
    }
  });
});
