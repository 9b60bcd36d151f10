import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { schedules } from "../../db/schema.ts";

/**
 * Typed questions survive a read-modify-write (issue 25 review): `question_details` on input, strings sent back as
 * read keep the stored details, number bounds Slack can show, and a required blocker question.
 */

const STANDUPS = "/dashboard/api/standups";
const VALID = { channel_id: "C0QDETAIL", schedule_time: "09:30", schedule_tz: "Europe/Berlin" };
const text = (t: string) => ({ text: t, type: "text", required: true, anonymous: false });
const PULSE = { text: "Is the workload fair?", type: "yes_no", required: false, anonymous: true };
const MOOD = { text: "Mood, 1–5?", type: "number", min: 1, max: 5, required: true, anonymous: false };
const DETAILS = [text("Done?"), text("Next?"), text("Blockers?"), PULSE, MOOD];
const TEXTS = DETAILS.map((d) => d.text);

describe("schedule API: question_details on input, bounds, the blocker question", async () => {
  const t = await useTestApp();
  await t.installTeam("T0QDETAIL");
  t.fake.addChannel("T0QDETAIL", { id: "C0QDETAIL", name: "qdetail", members: [] });
  const admin = await t.signIn("T0QDETAIL", "U0QDETAILADMIN");

  function call(method: "GET" | "POST" | "PUT", url: string, payload?: unknown) {
    if (payload === undefined) return t.inject({ method, url, headers: { cookie: admin } });
    const headers = { cookie: admin, "content-type": "application/json" };
    return t.inject({ method, url, headers, payload: JSON.stringify(payload) });
  }
  async function create(body: Record<string, unknown>) {
    const res = await call("POST", STANDUPS, { ...VALID, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  async function put(id: string, body: Record<string, unknown>, status = 200) {
    const res = await call("PUT", `${STANDUPS}/${id}`, body);
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  }
  async function storedDetails(id: string) {
    const [row] = await t.deps.db.select().from(schedules).where(eq(schedules.id, id));
    return row!.questionDetails;
  }
  async function refused(body: Record<string, unknown>, message: string) {
    const res = await call("POST", STANDUPS, { ...VALID, ...body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
  }

  it("GET, then PUT back with the question texts as strings (a rename), keeps every question's details", async () => {
    const { id } = await create({ questions: DETAILS });
    const read = (await call("GET", STANDUPS)).json().find((s: { id: string }) => s.id === id);
    expect(read.questions).toEqual(TEXTS);
    const back = await put(id, { name: "Renamed", questions: read.questions });
    expect(back.name).toBe("Renamed");
    expect(back.question_details).toEqual(DETAILS);
    // The anonymous pulse stays anonymous in storage, so answers keep going apart from the member.
    expect(await storedDetails(id)).toEqual(DETAILS);
  });

  it("a PUT of strings resets only the questions whose text changed at their place", async () => {
    const { id } = await create({ questions: DETAILS });
    const changed = [...TEXTS];
    changed[4] = "Energy, 1–5?";
    const body = await put(id, { questions: changed });
    expect(body.question_details).toEqual([...DETAILS.slice(0, 4), text("Energy, 1–5?")]);
    // Every text changed: everything is plain text again, and nothing is stored.
    const reset = await put(id, { questions: ["A?", "B?", "C?"] });
    expect(reset.question_details).toEqual([text("A?"), text("B?"), text("C?")]);
    expect(await storedDetails(id)).toBeNull();
    // Objects in questions are taken as they are: a typed question can be made plain text on purpose.
    const again = await put(id, { question_details: DETAILS });
    expect(again.question_details).toEqual(DETAILS);
    const plain = await put(id, { questions: TEXTS.map((q) => ({ text: q })) });
    expect(plain.question_details).toEqual(TEXTS.map(text));
  });

  it("question_details alone sets the questions and their details, on POST and on PUT", async () => {
    const created = await create({ question_details: DETAILS });
    expect(created.questions).toEqual(TEXTS);
    expect(created.question_details).toEqual(DETAILS);
    expect(created.blocker_question).toBe(3);
    const updated = await put(created.id, { question_details: [text("One?"), PULSE] });
    expect(updated.questions).toEqual(["One?", PULSE.text]);
    expect(updated.question_details).toEqual([text("One?"), PULSE]);
    expect(updated.blocker_question).toBeNull();
    // Both sent with equal texts: question_details wins over the strings.
    const both = await put(created.id, { questions: TEXTS, question_details: DETAILS });
    expect(both.question_details).toEqual(DETAILS);
  });

  it("question_details that do not match questions, or are not objects, are a 400 naming the item", async () => {
    const swapped = [...TEXTS];
    swapped[1] = "Something else?";
    await refused(
      { questions: swapped, question_details: DETAILS },
      "question_details[1].text must equal questions[1]",
    );
    await refused(
      { questions: TEXTS.slice(0, 3), question_details: DETAILS },
      "question_details must have one item per question (got 5 for 3 questions)",
    );
    await refused({ question_details: ["Done?"] }, "question_details[0] must be an object with a text");
    await refused(
      { question_details: [text("A?"), { text: "B?", type: "rating" }] },
      "question_details[1].type must be one of",
    );
    await refused({ question_details: [] }, "question_details must be an array of 1 to 10 objects");
    const { id } = await create({ question_details: DETAILS });
    const res = await call("PUT", `${STANDUPS}/${id}`, { questions: swapped, question_details: DETAILS });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain("question_details[1].text must equal questions[1]");
    expect(await storedDetails(id)).toEqual(DETAILS);
  });

  it("number bounds are within ±1,000,000,000 with at most 4 decimal places", async () => {
    const message = "must be a number from -1000000000 to 1000000000 with at most 4 decimal places, or null";
    for (const [bounds, field] of [
      [{ min: 1e21 }, "questions[0].min"],
      [{ max: -1e10 }, "questions[0].max"],
      [{ min: 1e-7 }, "questions[0].min"],
      [{ max: 0.12345 }, "questions[0].max"],
      [{ min: 1_000_000_000.5 }, "questions[0].min"],
    ] as const) {
      await refused({ questions: [{ text: "N?", type: "number", ...bounds }] }, `${field} ${message}`);
    }
    await refused(
      { question_details: [{ text: "N?", type: "number", max: 1e21 }] },
      `question_details[0].max ${message}`,
    );
    const body = await create({
      questions: [
        { text: "Wide?", type: "number", min: -1_000_000_000, max: 1_000_000_000 },
        { text: "Fine?", type: "number", min: -0.1234, max: 999_999_999.9999 },
      ],
    });
    expect(body.question_details[0]).toMatchObject({ min: -1_000_000_000, max: 1_000_000_000 });
    expect(body.question_details[1]).toMatchObject({ min: -0.1234, max: 999_999_999.9999 });
  });

  it("the blocker question must be required: a 400 names it; an optional third is not the default", async () => {
    const optional = ["A?", "B?", { text: "Blockers?", required: false }];
    await refused(
      { questions: optional, blocker_question: 3 },
      "blocker_question must point at a required text question that is not anonymous (question 3 is not)",
    );
    const created = await create({ questions: optional });
    expect(created.blocker_question).toBeNull();
    const withBlocker = await create({ questions: ["A?", "B?", "Blockers?"] });
    const res = await call("PUT", `${STANDUPS}/${withBlocker.id}`, { questions: optional, blocker_question: 3 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain("blocker_question must point at a required text question");
    // Making the blocker question optional without choosing another leaves the standup without one.
    expect((await put(withBlocker.id, { questions: optional })).blocker_question).toBeNull();
  });

  it("documents question_details as input and the bounds in the OpenAPI document", async () => {
    const doc = (await t.inject({ method: "GET", url: "/openapi.json" })).json();
    const post = JSON.stringify(doc.paths["/dashboard/api/standups"].post.requestBody);
    expect(post).toContain("question_details must be an array");
    expect(post).toContain("keeps their types");
    expect(post).toContain("at most 1000000000 either way, 4 decimal places");
    expect(post).toContain("a required text question, not anonymous");
  });
});
