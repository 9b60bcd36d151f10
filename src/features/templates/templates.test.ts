import { describe, expect, it } from "vitest";
import { MAX_OPTION_LENGTH, MAX_OPTIONS, MIN_OPTIONS, textQuestion } from "../../contract/questions.ts";
import { DEFAULT_QUESTIONS, findTemplate, TEMPLATES } from "./templates.ts";

describe("built-in templates", () => {
  it("has exactly 25 templates with unique names", () => {
    expect(TEMPLATES).toHaveLength(25);
    expect(new Set(TEMPLATES.map((template) => template.name)).size).toBe(25);
  });

  it.each(TEMPLATES.map((template) => [template.name, template] as const))("%s stays within limits", (_, template) => {
    expect(template.name.trim()).toBe(template.name);
    expect(template.name.length).toBeGreaterThan(0);
    expect(template.questions.length).toBeGreaterThanOrEqual(1);
    expect(template.questions.length).toBeLessThanOrEqual(10);
    expect(new Set(template.questions).size).toBe(template.questions.length);
    for (const question of template.questions) {
      expect(question.trim()).toBe(question);
      expect(question.length).toBeGreaterThan(0);
      expect(question.length).toBeLessThanOrEqual(300);
    }
  });

  it("starts with the daily standup using the three default questions", () => {
    expect(DEFAULT_QUESTIONS).toHaveLength(3);
    expect(TEMPLATES[0]).toEqual({
      name: "Daily standup",
      questions: [...DEFAULT_QUESTIONS],
      question_details: DEFAULT_QUESTIONS.map(textQuestion),
    });
  });

  it("is frozen all the way down", () => {
    expect(Object.isFrozen(TEMPLATES)).toBe(true);
    expect(Object.isFrozen(DEFAULT_QUESTIONS)).toBe(true);
    for (const template of TEMPLATES) {
      expect(Object.isFrozen(template)).toBe(true);
      expect(Object.isFrozen(template.questions)).toBe(true);
      expect(Object.isFrozen(template.question_details)).toBe(true);
      for (const d of template.question_details) expect(Object.isFrozen(d)).toBe(true);
    }
    expect(() => TEMPLATES[0]!.questions.push("Sneaky extra question?")).toThrow(TypeError);
  });

  it("finds a template by its exact name", () => {
    expect(findTemplate("Bug triage")?.questions.length).toBeGreaterThan(0);
    expect(findTemplate("bug triage")).toBeUndefined();
  });

  it.each(TEMPLATES.map((template) => [template.name, template] as const))(
    "%s has one valid detail per question, a text blocker question third",
    (_, template) => {
      expect(template.question_details.map((d) => d.text)).toEqual([...template.questions]);
      const blocker = template.question_details[2];
      if (blocker) expect(blocker).toMatchObject({ type: "text", anonymous: false, required: true });
      for (const d of template.question_details) {
        if (d.type === "single_choice" || d.type === "multiple_choice") {
          expect(d.options!.length).toBeGreaterThanOrEqual(MIN_OPTIONS);
          expect(d.options!.length).toBeLessThanOrEqual(MAX_OPTIONS);
          expect(new Set(d.options).size).toBe(d.options!.length);
          for (const o of d.options!) expect(o.length).toBeLessThanOrEqual(MAX_OPTION_LENGTH);
        } else {
          expect(d.options).toBeUndefined();
        }
        if (d.type === "number") expect(d.min! < d.max!).toBe(true);
      }
    },
  );

  it("a few templates ask typed questions: 1–5 scales for mood and confidence, a yes/no, a choice, an anonymous pulse", () => {
    const typed = (name: string) =>
      findTemplate(name)!
        .question_details.filter((d) => d.type !== "text")
        .map((d) => [d.type, d.anonymous]);
    expect(typed("Mood & wellbeing")).toEqual([
      ["yes_no", false],
      ["number", false],
    ]);
    expect(findTemplate("Mood & wellbeing")!.question_details.at(-1)).toMatchObject({ min: 1, max: 5 });
    expect(typed("Weekly planning")).toEqual([["number", false]]);
    expect(typed("OKR progress")).toEqual([["number", false]]);
    expect(typed("Release readiness")).toEqual([["number", false]]);
    expect(typed("Project status")).toEqual([["single_choice", false]]);
    expect(typed("Remote team pulse")).toEqual([["number", true]]);
    // The modal's hint and the DM's "(anonymous)" mark say so; the question's text does not repeat it.
    for (const t of TEMPLATES) for (const q of t.questions) expect(q).not.toMatch(/anonymous/i);
    expect(TEMPLATES.filter((t) => t.question_details.some((d) => d.type !== "text")).length).toBe(6);
  });
});
