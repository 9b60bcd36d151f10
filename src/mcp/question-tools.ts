import { z } from "zod";
import { ANONYMOUS_MIN_ANSWERS } from "../contract/questions.ts";
import { questionStatsFor } from "../features/insights/index.ts";
import { daysArg, defineTool, lastDays, toolFilters } from "./tool-kit.ts";

export const getQuestionStats = defineTool({
  name: "get_question_stats",
  title: "Typed question statistics",
  description:
    "Aggregates of one standup's questions that are not free text (number, yes_no, single_choice, " +
    "multiple_choice), as its runs in the window asked them, in question_stats. Each question has index (0-based position), text, " +
    "type, anonymous, answered (how many answers), options ([{option, count}] for choice and yes/no questions; a " +
    "multiple-choice answer counts once per option chosen), average, min and max (number questions) and trend " +
    "([{date, average, count}] per day, number questions). Anonymous questions are never broken down by member " +
    `and count only closed runs with at least ${ANONYMOUS_MIN_ANSWERS} answers (the others are left out of every ` +
    'number); with no such run they are hidden: true with hidden_reason "not enough answers to show". Their min and ' +
    "max are always null.",
  input: {
    standup_id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a schedule id")
      .describe("The standup: its schedule_id (get_workspace_summary lists the standups)."),
    days: daysArg(30, "Only runs from this window count."),
  },
  async run(ctx, args) {
    const [w] = await Promise.all([lastDays(ctx, args.days), toolFilters(ctx, { schedule_id: args.standup_id })]);
    const stats = await questionStatsFor(ctx.deps, ctx.teamId, args.standup_id, {
      from: w.from,
      to: w.to,
      totalDays: w.days,
    });
    return {
      standup_id: args.standup_id,
      from: stats.from,
      to: stats.to,
      days: stats.days,
      question_stats: stats.question_stats,
    };
  },
});
