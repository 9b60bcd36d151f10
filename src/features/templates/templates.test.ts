import { describe, expect, it } from "vitest";
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
    expect(TEMPLATES[0]).toEqual({ name: "Daily standup", questions: [...DEFAULT_QUESTIONS] });
  });

  it("is frozen all the way down", () => {
    expect(Object.isFrozen(TEMPLATES)).toBe(true);
    expect(Object.isFrozen(DEFAULT_QUESTIONS)).toBe(true);
    for (const template of TEMPLATES) {
      expect(Object.isFrozen(template)).toBe(true);
      expect(Object.isFrozen(template.questions)).toBe(true);
    }
    expect(() => TEMPLATES[0]!.questions.push("Sneaky extra question?")).toThrow(TypeError);
  });

  it("finds a template by its exact name", () => {
    expect(findTemplate("Bug triage")?.questions.length).toBeGreaterThan(0);
    expect(findTemplate("bug triage")).toBeUndefined();
  });
});
