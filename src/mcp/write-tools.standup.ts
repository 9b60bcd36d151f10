import { z } from "zod";
import { displayName, standupChannelNames } from "../features/schedules/index.ts";
import {
  findResponseOfRun,
  findRun,
  MAX_ANSWER_LENGTH,
  openRunsOfMember,
  type RunRow,
  runQuestions,
  type SubmitOutcome,
  scheduleName,
  skipRun,
  submitResponse,
} from "../features/standups/index.ts";
import { defineTool, scheduleArg, type ToolContext, ToolError } from "./tool-kit.ts";
import { answersArg, checkMood, moodArg, parseSubmission } from "./write-tools.answers.ts";
import { WRITE, type Writer, writer } from "./write-tools.guard.ts";

const runArg = (what: string) =>
  z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe(`The run (one day of a standup): ${what}`);

/** A standup's name as the read tools give it (standup_name): its own, or "#<channel> standup". */
async function standupName(ctx: ToolContext, run: RunRow): Promise<string> {
  const [name, channels] = await Promise.all([
    scheduleName(ctx.deps.db, ctx.teamId, run.scheduleId),
    standupChannelNames(ctx.deps, ctx.teamId),
  ]);
  return displayName({ name, channelId: run.channelId }, channels);
}

async function describeRun(ctx: ToolContext, run: RunRow): Promise<string> {
  return `${await standupName(ctx, run)} of ${run.localDate} (schedule_id ${run.scheduleId}, run_id ${run.id})`;
}

/** The run an answer is for: the one named, or the member's only open run (of the standup named). */
async function pickRun(
  ctx: ToolContext,
  w: Writer,
  args: { run_id?: number | undefined; schedule_id?: string | undefined },
): Promise<RunRow> {
  if (args.run_id !== undefined) {
    const run = await findRun(ctx.deps.db, ctx.teamId, args.run_id);
    if (!run) throw new ToolError(`run_id ${args.run_id} is not a run of this workspace (not found).`);
    if (args.schedule_id && run.scheduleId !== args.schedule_id) {
      throw new ToolError(`run_id ${args.run_id} is a run of standup ${run.scheduleId}, not of ${args.schedule_id}.`);
    }
    return run;
  }
  const open = (await openRunsOfMember(ctx.deps.db, ctx.teamId, w.userId, ctx.deps.clock.now())).filter(
    (r) => r.participantStatus !== "pending" && (!args.schedule_id || r.scheduleId === args.schedule_id),
  );
  if (open.length === 1) return open[0]!;
  if (open.length === 0) {
    throw new ToolError(
      args.schedule_id
        ? `You have no open run of standup ${args.schedule_id} to answer (not found, or not asking you now).`
        : "You have no open standup to answer now. For a late answer pass its run_id.",
    );
  }
  const listed = await Promise.all(open.map((r) => describeRun(ctx, r)));
  throw new ToolError(`You have ${open.length} open standups: ${listed.join("; ")}. Pass run_id to say which.`);
}

async function refusal(ctx: ToolContext, run: RunRow, outcome: Exclude<SubmitOutcome, { ok: true }>): Promise<never> {
  const which = await describeRun(ctx, run);
  switch (outcome.reason) {
    case "not_found":
      throw new ToolError(`run_id ${run.id} is not a run of this workspace (not found).`);
    case "closed":
      throw new ToolError(`${which} no longer takes answers: it closed and the standup has asked again since.`);
    case "not_participant":
      throw new ToolError(`You were not asked in ${which}: only its participants answer it.`);
    case "too_long":
      throw new ToolError(`An answer is longer than ${MAX_ANSWER_LENGTH} characters; shorten it.`);
    case "empty":
      throw new ToolError("Every answer is empty: give at least one.");
    case "invalid": {
      const d = runQuestions(run)[outcome.question];
      throw new ToolError(`The answer to "${run.questions[outcome.question]}" does not fit it (${d?.type}).`);
    }
  }
}

export const submitStandupTool = defineTool({
  name: "submit_standup",
  title: "Submit or edit my standup answers",
  description:
    "Answers a standup as the member this credential acts for, exactly as answering in Slack does (the answer is " +
    "posted in the standup's thread, marked via MCP). Without run_id it answers the member's open standup; with " +
    "several open, it lists them and run_id picks one. Calling it again while the run takes answers edits the " +
    "answer: an object of question texts changes only those answers. A run whose window closed still takes a first answer, marked late, until the " +
    "standup asks again. Returns response_id, run_id, schedule_id, standup_date, created (false: an edit), late " +
    "and the stored answers by question.",
  input: {
    schedule_id: scheduleArg(),
    run_id: runArg("leave it out to answer your open standup."),
    answers: answersArg(),
    mood: moodArg(),
  },
  scope: "standups:write",
  annotations: { ...WRITE, idempotentHint: true },
  async run(ctx, args) {
    const w = await writer(ctx);
    checkMood(args.mood);
    const run = await pickRun(ctx, w, args);
    const before = await findResponseOfRun(ctx.deps.db, run.id, w.userId);
    const parsed = parseSubmission(run, args.answers, before);
    const outcome = await submitResponse(ctx.deps, {
      teamId: ctx.teamId,
      runId: run.id,
      userId: w.userId,
      answers: parsed.answers,
      values: parsed.values,
      mood: args.mood === undefined ? (before?.mood ?? null) : args.mood,
      via: "mcp",
    });
    if (!outcome.ok) return refusal(ctx, run, outcome);
    const saved = await findResponseOfRun(ctx.deps.db, run.id, w.userId);
    const details = runQuestions(run);
    return {
      response_id: outcome.responseId,
      run_id: run.id,
      schedule_id: run.scheduleId,
      standup_date: run.localDate,
      created: outcome.created,
      late: saved?.late ?? false,
      mood: saved?.mood ?? null,
      questions: run.questions.map((question, i) => ({
        question,
        answer: details[i]?.anonymous ? "(anonymous: stored without your name)" : (saved?.answers[i] ?? ""),
      })),
    };
  },
});

export const skipStandupTool = defineTool({
  name: "skip_standup",
  title: "Skip today's standup",
  description:
    "Skips, for the member this credential acts for, the open standups they have not answered yet (as `skip` in " +
    "the Slack DM does), or only run_id. Returns what was skipped: run_id, schedule_id, standup_name, standup_date.",
  input: { run_id: runArg("only this one; leave it out to skip every open standup you have not answered.") },
  scope: "standups:write",
  annotations: { ...WRITE, idempotentHint: true },
  async run(ctx, args) {
    const w = await writer(ctx);
    let runs: RunRow[];
    if (args.run_id !== undefined) {
      const run = await findRun(ctx.deps.db, ctx.teamId, args.run_id);
      if (!run) throw new ToolError(`run_id ${args.run_id} is not a run of this workspace (not found).`);
      runs = [run];
    } else {
      const open = await openRunsOfMember(ctx.deps.db, ctx.teamId, w.userId, ctx.deps.clock.now());
      runs = open.filter((r) => r.participantStatus === "asked");
    }
    const skipped = [];
    for (const run of runs) {
      if (!(await skipRun(ctx.deps, ctx.teamId, run.id, w.userId))) continue;
      const standup_name = await standupName(ctx, run);
      skipped.push({ run_id: run.id, schedule_id: run.scheduleId, standup_name, standup_date: run.localDate });
    }
    if (skipped.length === 0) {
      throw new ToolError(
        args.run_id !== undefined
          ? `Nothing to skip in run_id ${args.run_id}: it is not open, or you already answered or skipped it, or ` +
              "you were not asked in it."
          : "Nothing to skip: you have no open standup left unanswered.",
      );
    }
    return { count: skipped.length, skipped };
  },
});
