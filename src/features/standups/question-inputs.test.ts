import { describe, expect, it } from "vitest";
import type { QuestionDetail } from "../../contract/questions.ts";
import { questionBlocks } from "./question-inputs.ts";

/** The answer modal's number input: Slack refuses a view whose initial_value lies outside min_value–max_value. */

const numberQuestion = (min: number | null, max: number | null): QuestionDetail => ({
  text: "Mood?",
  type: "number",
  min,
  max,
  required: true,
  anonymous: false,
});

function numberElement(d: QuestionDetail, value: number) {
  const [block] = questionBlocks([d], [{ text: String(value), value }], true);
  return (block as unknown as { element: Record<string, unknown> }).element;
}

describe("the modal's number input on an edit", () => {
  it("shows the earlier answer while it is within the question's current bounds", () => {
    expect(numberElement(numberQuestion(1, 5), 4)).toMatchObject({
      type: "number_input",
      min_value: "1",
      max_value: "5",
      initial_value: "4",
    });
    expect(numberElement(numberQuestion(null, null), 1234.5).initial_value).toBe("1234.5");
    expect(numberElement(numberQuestion(1, null), 1).initial_value).toBe("1");
  });

  it("omits an earlier answer the bounds have since excluded (the question was edited after it was given)", () => {
    const above = numberElement(numberQuestion(1, 5), 7);
    expect(above).toMatchObject({ min_value: "1", max_value: "5" });
    expect(above).not.toHaveProperty("initial_value");
    expect(numberElement(numberQuestion(0, null), -2)).not.toHaveProperty("initial_value");
    expect(numberElement(numberQuestion(null, 10), 10.5)).not.toHaveProperty("initial_value");
  });
});
