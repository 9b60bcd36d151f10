import { z } from "zod";
import { isoDate } from "./common.ts";
import { windowQuery } from "./insights.ts";
import { ANONYMOUS_MIN_ANSWERS, QUESTION_TYPES } from "./questions.ts";

/** What a hidden anonymous aggregate says instead of its numbers. */
export const NOT_ENOUGH_ANSWERS = "not enough answers to show";

const STANDUP_MESSAGE = "standup must be one standup id (letters, digits, _ or -)";

/**
 * `?standup=&days=&from=&to=`: one standup's typed questions over a window. `schedule_id` is accepted as the same
 * thing, as every other view calls the standup filter.
 */
export const questionStatsQuery = windowQuery.extend({
  standup: z
    .string({ error: STANDUP_MESSAGE })
    .trim()
    .regex(/^([A-Za-z0-9_-]{1,64})?$/, STANDUP_MESSAGE)
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .describe("The standup (a schedule id of the workspace, deleted ones included; another id answers 404)"),
  schedule_id: z
    .string({ error: STANDUP_MESSAGE })
    .trim()
    .regex(/^([A-Za-z0-9_-]{1,64})?$/, STANDUP_MESSAGE)
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .describe("Another name for standup"),
});

export const optionCount = z.object({ option: z.string(), count: z.number().int() }).meta({ id: "OptionCount" });

export const numberTrendPoint = z
  .object({
    date: isoDate,
    average: z.number().describe("Rounded to two decimals"),
    count: z.number().int().describe("Answers that day"),
  })
  .meta({ id: "NumberTrendPoint" });

export const questionStat = z
  .object({
    index: z.number().int().describe("The question's position (0-based) in the latest run of the window that asked it"),
    text: z.string(),
    type: z.enum(QUESTION_TYPES).exclude(["text"]),
    anonymous: z.boolean(),
    answered: z
      .number()
      .int()
      .describe(
        `Answers with a value in the window; for an anonymous question only those of closed runs with at least ${ANONYMOUS_MIN_ANSWERS} answers`,
      ),
    options: z
      .array(optionCount)
      .describe(
        "single_choice, multiple_choice and yes_no: answers per option (the latest run's options first, in order, " +
          "then any other value answered); a multiple-choice answer counts once for each option chosen. Empty otherwise or when hidden",
      ),
    average: z.number().nullable().describe("number: the mean of every answer (two decimals); null otherwise"),
    min: z.number().nullable().describe("number: the lowest answer; always null for an anonymous question"),
    max: z.number().nullable().describe("number: the highest answer; always null for an anonymous question"),
    trend: z
      .array(numberTrendPoint)
      .describe(
        `number: the mean per day with answers; for an anonymous question only closed runs with at least ${ANONYMOUS_MIN_ANSWERS} answers`,
      ),
    hidden: z
      .boolean()
      .describe(
        `An anonymous question with no closed run of at least ${ANONYMOUS_MIN_ANSWERS} answers in the window: no counts, no average, no trend`,
      ),
    hidden_reason: z.string().nullable().describe(`"${NOT_ENOUGH_ANSWERS}" when hidden, else null`),
  })
  .meta({ id: "QuestionStat" });

export const questionStats = z
  .object({
    schedule_id: z.string(),
    days: z.number().int(),
    from: isoDate,
    to: isoDate,
    question_stats: z
      .array(questionStat)
      .describe("Every question of the standup's runs in the window that is not free text, by position"),
  })
  .meta({ id: "QuestionStats" });

export type QuestionStat = z.output<typeof questionStat>;
export type QuestionStats = z.output<typeof questionStats>;
