import { describe, expect, it } from "vitest";
import type { QuestionDetail } from "../../contract/questions.ts";
import { answerHint, parseDmAnswer, parseNumber, splitAnswers } from "./typed-answers.ts";

const q = (over: Partial<QuestionDetail>): QuestionDetail => ({
  text: "Q?",
  type: "text",
  required: true,
  anonymous: false,
  ...over,
});

describe("a DM reply read against its question", () => {
  const choice = q({ type: "single_choice", options: ["Frontend", "Backend", "Café Ops"] });
  const multi = q({ type: "multiple_choice", options: ["Mon", "Tue", "Wed"] });
  const number = q({ type: "number", min: 1, max: 5 });

  it.each([
    [choice, "CAFÉ ops", "Café Ops"],
    [choice, "cafe ops", "Café Ops"],
    [choice, "2", "Backend"],
    [multi, "wed, 1 ,tue", ["Mon", "Tue", "Wed"]],
    [multi, "Mon, mon", ["Mon"]],
    [q({ type: "multiple_choice", options: ["Red, green", "Blue"] }), "red, GREEN", ["Red, green"]],
    [number, "3,5", 3.5],
    [number, " 5 ", 5],
    [q({ type: "number" }), "-12.25", -12.25],
    [q({ type: "yes_no" }), "Y", true],
    [q({ type: "yes_no" }), "no", false],
    [q({ type: "yes_no", required: false }), "-", null],
    [q({ required: false }), "-", null],
  ] as const)("%j takes %j as %j", (d, text, value) => {
    expect(parseDmAnswer(d, text)).toMatchObject({ ok: true, value });
  });

  it.each([
    [choice, "4"],
    [choice, "0"],
    [choice, "Backend, Frontend"],
    [multi, "Mon, Fri"],
    [number, "6"],
    [number, "0.5"],
    [number, "three"],
    [number, "1.2.3"],
    [q({ type: "yes_no" }), "maybe"],
    [q({ type: "yes_no" }), "-"],
  ] as const)("%j refuses %j", (d, text) => {
    expect(parseDmAnswer(d, text)).toEqual({ ok: false });
  });

  it("says how to answer each type; a required text question gets no hint, as before types", () => {
    expect(answerHint(q({}))).toBe("");
    expect(answerHint(choice)).toBe("Reply with one of: 1. Frontend, 2. Backend, 3. Café Ops");
    expect(answerHint(q({ type: "number", min: 1 }))).toBe("Reply with a number of at least 1");
    expect(answerHint(q({ type: "yes_no", required: false, anonymous: true }))).toBe(
      "Reply yes or no. Optional: reply `-` to leave it blank. Anonymous: stored without your name",
    );
  });
});

describe("a number typed in the DM", () => {
  it("takes a decimal comma only as one comma with 1–2 digits after it and no dot", () => {
    expect(parseNumber("3,5")).toBe(3.5);
    expect(parseNumber("-2,25")).toBe(-2.25);
    expect(parseNumber("3.5")).toBe(3.5);
    expect(parseNumber(" 4 ")).toBe(4);
  });

  it("reads commas grouping thousands as thousands, never as a decimal comma", () => {
    expect(parseNumber("1,000")).toBe(1000);
    expect(parseNumber("12,345,678")).toBe(12345678);
    expect(parseNumber("1,000.5")).toBe(1000.5);
  });

  it("refuses any other comma", () => {
    for (const bad of ["1,0000", "1,2,3", "1,5.5", "12,34,567", "1,", ",5", "1.000,5"])
      expect(parseNumber(bad), bad).toBeUndefined();
    // Out of range as 1000: the question is asked again instead of taking 1.
    expect(
      parseDmAnswer({ text: "n", type: "number", min: 1, max: 5, required: true, anonymous: false }, "1,000"),
    ).toEqual({ ok: false });
  });
});

describe("a submission split into the response row and the anonymous answers", () => {
  it("keeps texts and values in the row, anonymous ones only apart", () => {
    const details = [
      q({}),
      q({ type: "number", max: 10 }),
      q({ anonymous: true }),
      q({ type: "yes_no", anonymous: true }),
    ];
    const run = { questions: details.map((d) => d.text), questionDetails: details };
    expect(splitAnswers(run, [" did it ", "", "secret", ""], [null, 7, null, false])).toEqual({
      texts: ["did it", "7", "", ""],
      values: [null, 7, null, null],
      anonymous: [
        { questionIndex: 2, value: "secret" },
        { questionIndex: 3, value: false },
      ],
    });
    expect(splitAnswers(run, ["x", "", "", ""], [null, 11, null, null]).invalid).toBe(1);
  });

  it("a run without details keeps answer_values null, as before types", () => {
    expect(splitAnswers({ questions: ["a?", "b?"] }, ["one", "two"], undefined)).toEqual({
      texts: ["one", "two"],
      values: null,
      anonymous: [],
    });
  });
});
