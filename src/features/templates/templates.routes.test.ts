import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { textQuestion } from "../../contract/questions.ts";
import { DEFAULT_QUESTIONS, TEMPLATES } from "./templates.ts";

describe("GET /dashboard/api/templates", async () => {
  const t = await useTestApp();
  await t.installTeam("T0TPL");
  await t.addMember("T0TPL", "U0TPLMEMBER");
  const member = await t.signIn("T0TPL", "U0TPLMEMBER");

  it("any member gets the 25 built-in templates, each with a unique name and its questions", async () => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/templates", headers: { cookie: member } });
    expect(res.statusCode).toBe(200);
    const templates: { name: string; questions: string[] }[] = res.json();
    expect(templates).toHaveLength(25);
    expect(new Set(templates.map((template) => template.name)).size).toBe(25);
    for (const template of templates) {
      expect(Object.keys(template).sort()).toEqual(["name", "question_details", "questions"]);
      expect(template.name).toEqual(expect.any(String));
      expect(template.questions.length).toBeGreaterThan(0);
      for (const question of template.questions) expect(question).toEqual(expect.any(String));
    }
    expect(templates).toEqual(JSON.parse(JSON.stringify(TEMPLATES)));
    expect(templates[0]).toEqual({
      name: "Daily standup",
      questions: [...DEFAULT_QUESTIONS],
      question_details: DEFAULT_QUESTIONS.map(textQuestion),
    });
    // Typed questions travel with their type, bounds and options.
    const status = templates.find((template) => template.name === "Project status") as unknown as {
      question_details: unknown[];
    };
    expect(status.question_details[3]).toEqual({
      text: "Is the project on track?",
      type: "single_choice",
      options: ["Green", "Amber", "Red"],
      required: true,
      anonymous: false,
    });
  });

  it("needs a session", async () => {
    const res = await t.inject({ method: "GET", url: "/dashboard/api/templates" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: "Unauthorized" });
  });
});
