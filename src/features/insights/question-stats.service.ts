import { NOT_ENOUGH_ANSWERS, type QuestionStat, type QuestionStats } from "../../contract/question-stats.ts";
import { ANONYMOUS_MIN_ANSWERS } from "../../contract/questions.ts";
import type { Deps } from "../../deps.ts";
import { badRequest } from "../../http/errors.ts";
import { resolveFilters, type WindowQuery, windowFor } from "./insights.service.ts";
import { type QuestionStatRow, questionStatsRows } from "./question-stats.repo.ts";

type StatsDeps = Pick<Deps, "db" | "clock">;
type Span = { from: string; to: string; totalDays: number };

/** The options a question offers, in its order: the latest run's options, Yes/No for yes_no. */
function definedOptions(row: QuestionStatRow): string[] {
  if (row.type === "yes_no") return ["Yes", "No"];
  if (row.type === "number" || !Array.isArray(row.defined)) return [];
  return row.defined.filter((o): o is string => typeof o === "string");
}

/**
 * A row as the API shows it: every offered option (0 when nobody chose it), then values answered that the latest
 * run no longer offers. An anonymous question counts only closed runs with at least ANONYMOUS_MIN_ANSWERS answers (the
 * repo drops the others before summing): with none it shows nothing but that it is hidden, and it never shows a lowest
 * or highest answer, which a single person gives.
 */
export function presentQuestionStat(row: QuestionStatRow): QuestionStat {
  const hidden = row.anonymous && row.answered < ANONYMOUS_MIN_ANSWERS;
  const counted = new Map(row.counts.map((c) => [c.option, c.count]));
  const defined = definedOptions(row);
  const options =
    row.type === "number"
      ? []
      : [
          ...defined.map((option) => ({ option, count: counted.get(option) ?? 0 })),
          ...row.counts.filter((c) => !defined.includes(c.option)),
        ];
  const trend = row.anonymous ? row.trend.filter((p) => p.count >= ANONYMOUS_MIN_ANSWERS) : row.trend;
  return {
    index: row.index,
    text: row.text,
    type: row.type,
    anonymous: row.anonymous,
    answered: row.answered,
    options: hidden ? [] : options,
    average: hidden ? null : row.average,
    min: row.anonymous ? null : row.min,
    max: row.anonymous ? null : row.max,
    trend: hidden ? [] : trend,
    hidden,
    hidden_reason: hidden ? NOT_ENOUGH_ANSWERS : null,
  };
}

/** One standup's typed questions over a window (the dashboard's view and the MCP tool's). */
export async function questionStatsFor(
  deps: Pick<Deps, "db">,
  teamId: string,
  scheduleId: string,
  w: Span,
): Promise<QuestionStats> {
  const found = await questionStatsRows(deps.db, teamId, scheduleId, w.from, w.to);
  return {
    schedule_id: scheduleId,
    days: w.totalDays,
    from: w.from,
    to: w.to,
    question_stats: found.map(presentQuestionStat),
  };
}

export async function getQuestionStats(
  deps: StatsDeps,
  teamId: string,
  query: WindowQuery & { standup?: string | undefined; schedule_id?: string | undefined },
): Promise<QuestionStats> {
  const scheduleId = query.standup ?? query.schedule_id;
  if (!scheduleId) throw badRequest("standup is required: the id of one standup");
  const [w] = await Promise.all([
    windowFor(deps, teamId, query),
    resolveFilters(deps, teamId, { schedule_id: scheduleId }),
  ]);
  return questionStatsFor(deps, teamId, scheduleId, w);
}
