import { and, eq, isNull } from "drizzle-orm";
import { anyOf } from "../../db/arrays.ts";
import { schedules } from "../../db/schema.ts";
import type { Deps } from "../../deps.ts";
import { RetryLaterError } from "../../lib/retry-later.ts";
import { claimWeekSummary, findWeekSummary, finishWeekSummary, STALE_CLAIM_MS, type WeekKey } from "./ai.repo.ts";
import { weekAnswers } from "./inputs.ts";
import { weekMessages } from "./prompt.ts";
import { summarise } from "./summarise.ts";

export interface WeekSummary {
  text: string;
  model: string;
}

/**
 * The weekly digest's AI summaries, by schedule id: one per standup with ai_summary on, when the server has a model.
 * Each is claimed once per (workspace, standup, week) before the model is called, so every recipient's e-mail,
 * a resend and a second instance all read the same stored text. While another worker is writing one, the e-mail job
 * waits (RetryLaterError) rather than going out without it. Failed or skipped ones are simply left out.
 */
export async function weekAiSummaries(
  deps: Deps,
  teamId: string,
  week: { from: string; to: string },
  scheduleIds: readonly string[],
): Promise<Map<string, WeekSummary>> {
  const out = new Map<string, WeekSummary>();
  const llm = deps.config.llm;
  if (!llm || scheduleIds.length === 0) return out;
  const wanted = await deps.db
    .select({ id: schedules.id })
    .from(schedules)
    .where(
      and(
        eq(schedules.teamId, teamId),
        anyOf(schedules.id, scheduleIds),
        eq(schedules.aiSummary, true),
        isNull(schedules.deletedAt),
      ),
    );
  for (const { id } of wanted) {
    const key: WeekKey = { teamId, scheduleId: id, weekStart: week.from };
    const now = deps.clock.now();
    const claim = await claimWeekSummary(deps.db, key, now);
    if (!claim.claimed) {
      if (claim.status === "pending") {
        const wait = Math.max(1000, claim.createdAt.getTime() + STALE_CLAIM_MS - now.getTime() + 1000);
        // Being written right now (usually a few seconds): the e-mail goes out once it is there.
        throw new RetryLaterError(Math.min(wait, 15_000), "the digest's AI summary is being written elsewhere");
      }
      const row = await findWeekSummary(deps.db, key);
      if (row?.status === "posted" && row.text && row.model) out.set(id, { text: row.text, model: row.model });
      continue;
    }
    const answers = await weekAnswers(deps, teamId, id, week.from, week.to);
    if (answers.length === 0) {
      await finishWeekSummary(deps.db, key, { status: "skipped", error: "no_answers" }, deps.clock.now());
      continue;
    }
    const result = await summarise(deps, llm, teamId, weekMessages({ ...week, answers }), {
      schedule_id: id,
      week_start: week.from,
    });
    if (!result.ok) {
      await finishWeekSummary(
        deps.db,
        key,
        { status: result.status, error: result.reason, model: llm.model, tokens: result.tokens },
        deps.clock.now(),
      );
      continue;
    }
    await finishWeekSummary(
      deps.db,
      key,
      { status: "posted", text: result.text, model: llm.model, tokens: result.tokens },
      deps.clock.now(),
    );
    out.set(id, { text: result.text, model: llm.model });
  }
  return out;
}
