import { and, eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type AiSummaryStatus, aiDigestSummaries, aiSummaries, llmUsage } from "../../db/schema.ts";

/**
 * A pending claim this old belongs to a worker that died between claiming and finishing: the job's retry may take it
 * over and call the model again. It must be well above the longest call (LLM_TIMEOUT_MS, at most MAX_LLM_TIMEOUT_MS,
 * 2 minutes, in config.ts), so a call still under way is never taken over; the margin covers the reads before the
 * call and the post after it.
 */
export const STALE_CLAIM_MS = 10 * 60_000;

export type ClaimOutcome = { claimed: true } | { claimed: false; status: AiSummaryStatus; createdAt: Date };

export interface RunKey {
  runId: number;
  teamId: string;
  scheduleId: string;
  standupDate: string;
}

/**
 * Claims the run's AI summary before the model is called: the row is the claim, so two instances (or a job that runs
 * twice) never both call the model or post. A pending claim older than STALE_CLAIM_MS is taken over.
 */
export async function claimRunSummary(ex: Executor, key: RunKey, now: Date): Promise<ClaimOutcome> {
  const inserted = await ex
    .insert(aiSummaries)
    .values({ ...key, status: "pending", createdAt: now })
    .onConflictDoNothing()
    .returning({ runId: aiSummaries.runId });
  if (inserted.length > 0) return { claimed: true };
  const takenOver = await ex
    .update(aiSummaries)
    .set({ createdAt: now })
    .where(
      and(
        eq(aiSummaries.runId, key.runId),
        eq(aiSummaries.teamId, key.teamId),
        eq(aiSummaries.status, "pending"),
        lt(aiSummaries.createdAt, new Date(now.getTime() - STALE_CLAIM_MS)),
      ),
    )
    .returning({ runId: aiSummaries.runId });
  if (takenOver.length > 0) return { claimed: true };
  const [row] = await ex
    .select({ status: aiSummaries.status, createdAt: aiSummaries.createdAt })
    .from(aiSummaries)
    .where(and(eq(aiSummaries.runId, key.runId), eq(aiSummaries.teamId, key.teamId)));
  return { claimed: false, status: row?.status ?? "pending", createdAt: row?.createdAt ?? now };
}

export interface Outcome {
  status: Exclude<AiSummaryStatus, "pending">;
  text?: string;
  model?: string;
  tokens?: number;
  error?: string;
}

export async function finishRunSummary(ex: Executor, teamId: string, runId: number, o: Outcome, now: Date) {
  await ex
    .update(aiSummaries)
    .set({
      status: o.status,
      text: o.text ?? null,
      model: o.model ?? null,
      tokens: o.tokens ?? 0,
      error: o.error ?? null,
      finishedAt: now,
    })
    .where(and(eq(aiSummaries.runId, runId), eq(aiSummaries.teamId, teamId), eq(aiSummaries.status, "pending")));
}

/** The run's summary row, whatever its status (the workspace's only). */
export async function findRunSummary(ex: Executor, teamId: string, runId: number) {
  const [row] = await ex
    .select()
    .from(aiSummaries)
    .where(and(eq(aiSummaries.runId, runId), eq(aiSummaries.teamId, teamId)));
  return row;
}

export interface WeekKey {
  teamId: string;
  scheduleId: string;
  weekStart: string;
}

/** The digest's claim: one model call per standup and week, whichever instance or resend gets there first. */
export async function claimWeekSummary(ex: Executor, key: WeekKey, now: Date): Promise<ClaimOutcome> {
  const inserted = await ex
    .insert(aiDigestSummaries)
    .values({ ...key, status: "pending", createdAt: now })
    .onConflictDoNothing()
    .returning({ teamId: aiDigestSummaries.teamId });
  if (inserted.length > 0) return { claimed: true };
  const where = and(
    eq(aiDigestSummaries.teamId, key.teamId),
    eq(aiDigestSummaries.scheduleId, key.scheduleId),
    eq(aiDigestSummaries.weekStart, key.weekStart),
  );
  const takenOver = await ex
    .update(aiDigestSummaries)
    .set({ createdAt: now })
    .where(
      and(
        where,
        eq(aiDigestSummaries.status, "pending"),
        lt(aiDigestSummaries.createdAt, new Date(now.getTime() - STALE_CLAIM_MS)),
      ),
    )
    .returning({ teamId: aiDigestSummaries.teamId });
  if (takenOver.length > 0) return { claimed: true };
  const [row] = await ex
    .select({ status: aiDigestSummaries.status, createdAt: aiDigestSummaries.createdAt })
    .from(aiDigestSummaries)
    .where(where);
  return { claimed: false, status: row?.status ?? "pending", createdAt: row?.createdAt ?? now };
}

export async function finishWeekSummary(ex: Executor, key: WeekKey, o: Outcome, now: Date) {
  await ex
    .update(aiDigestSummaries)
    .set({
      status: o.status,
      text: o.text ?? null,
      model: o.model ?? null,
      tokens: o.tokens ?? 0,
      error: o.error ?? null,
      finishedAt: now,
    })
    .where(
      and(
        eq(aiDigestSummaries.teamId, key.teamId),
        eq(aiDigestSummaries.scheduleId, key.scheduleId),
        eq(aiDigestSummaries.weekStart, key.weekStart),
        eq(aiDigestSummaries.status, "pending"),
      ),
    );
}

export async function findWeekSummary(ex: Executor, key: WeekKey) {
  const [row] = await ex
    .select()
    .from(aiDigestSummaries)
    .where(
      and(
        eq(aiDigestSummaries.teamId, key.teamId),
        eq(aiDigestSummaries.scheduleId, key.scheduleId),
        eq(aiDigestSummaries.weekStart, key.weekStart),
      ),
    );
  return row;
}

/**
 * Reserves `estimate` tokens of the workspace's day in one statement, before the model is called: added only when
 * they fit (`tokens + estimate <= budget`), so two calls at once cannot both pass a check made before either is
 * counted. A returned row means reserved (the call is counted then); none means the budget is spent.
 */
export async function reserveTokens(
  ex: Executor,
  teamId: string,
  day: string,
  estimate: number,
  budget: number,
): Promise<boolean> {
  if (estimate > budget) return false;
  const reserved = await ex
    .insert(llmUsage)
    .values({ teamId, day, tokens: estimate, calls: 1 })
    .onConflictDoUpdate({
      target: [llmUsage.teamId, llmUsage.day],
      set: { tokens: sql`${llmUsage.tokens} + excluded.tokens`, calls: sql`${llmUsage.calls} + 1` },
      setWhere: sql`${llmUsage.tokens} + excluded.tokens <= ${budget}`,
    })
    .returning({ tokens: llmUsage.tokens });
  return reserved.length > 0;
}

/** Settles a reservation to what the call cost: adds `actual - estimate` (negative when it cost less) to that day. */
export async function settleTokens(
  ex: Executor,
  teamId: string,
  day: string,
  estimate: number,
  actual: number,
): Promise<void> {
  if (actual === estimate) return;
  await ex
    .update(llmUsage)
    .set({ tokens: sql`greatest(0, ${llmUsage.tokens} + ${actual - estimate}::int)` })
    .where(and(eq(llmUsage.teamId, teamId), eq(llmUsage.day, day)));
}

/** The generated text kept with the still-pending claim, before it is posted (a retry posts it, not a new call). */
export async function storeGenerated(
  ex: Executor,
  teamId: string,
  runId: number,
  g: { text: string; model: string; tokens: number },
): Promise<void> {
  await ex
    .update(aiSummaries)
    .set(g)
    .where(and(eq(aiSummaries.runId, runId), eq(aiSummaries.teamId, teamId), eq(aiSummaries.status, "pending")));
}
