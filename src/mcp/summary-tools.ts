import { z } from "zod";
import { findRunSummary, openBlockerCount, pickRun, runCounts } from "../features/ai-summary/index.ts";
import { dateArg, defineTool, realDate, scheduleArg, ToolError } from "./tool-kit.ts";

/**
 * get_summary: one run's figures (always) and its AI summary when one was posted. The figures make it useful on a
 * server without a model; the AI text is only what was posted in Slack, never a failed or pending attempt.
 */
export const getSummary = defineTool({
  name: "get_summary",
  title: "Get a standup run's summary",
  description:
    "One standup run's summary: who was asked, answered, skipped or away, participation, open blockers, and the AI " +
    "summary posted in its Slack thread (null when the standup has AI summaries off or none was written). Give " +
    "run_id, or schedule_id with an optional date; with nothing, the workspace's latest run.",
  input: {
    run_id: z.number().int().positive().optional().describe("The run's id (get_standups lists runs by date)."),
    schedule_id: scheduleArg(),
    date: dateArg("The run's date"),
  },
  async run(ctx, args) {
    const date = realDate("date", args.date);
    const run = await pickRun(ctx.deps.db, ctx.teamId, {
      runId: args.run_id,
      scheduleId: args.schedule_id,
      date,
    });
    if (!run) {
      throw new ToolError(
        args.run_id !== undefined
          ? `run_id ${args.run_id} is not a run of this workspace.`
          : "No standup run matches; get_workspace_summary lists the standups and their latest runs.",
      );
    }
    const [counts, summary, openBlockers] = await Promise.all([
      runCounts(ctx.deps.db, ctx.teamId, run.id),
      findRunSummary(ctx.deps.db, ctx.teamId, run.id),
      openBlockerCount(ctx.deps.db, ctx.teamId, run.scheduleId),
    ]);
    return {
      run_id: run.id,
      schedule_id: run.scheduleId,
      standup_date: run.localDate,
      status: run.status,
      ai_summary:
        summary?.status === "posted" && summary.text && summary.model
          ? { text: summary.text, model: summary.model, created_at: summary.createdAt.toISOString() }
          : null,
      plain: {
        asked: counts.asked,
        answered: counts.answered,
        skipped: counts.skipped,
        away: counts.away,
        participation: counts.asked === 0 ? 0 : Math.round((100 * counts.answered) / counts.asked),
        open_blockers: openBlockers,
      },
    };
  },
});
