import { DateTime } from "luxon";
import type { LlmConfig } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { reserveTokens, settleTokens } from "./ai.repo.ts";
import { type ChatMessage, callEstimate, complete, type LlmFailure } from "./llm.client.ts";

export type Summarised =
  | { ok: true; text: string; tokens: number }
  | { ok: false; status: "failed" | "skipped"; reason: LlmFailure | "budget"; tokens: number };

/** What a log line says about the call: where, and how it went; never the prompt, the answers or the model's text. */
export type LogContext = Record<string, string | number>;

/**
 * One model call within the workspace's daily budget: the most it can cost (prompt estimate plus the longest answer)
 * is reserved on the UTC day first, and the call is skipped when that does not fit in LLM_DAILY_TOKENS; afterwards
 * the day is settled to what the call cost (whatever the outcome: a failed call may have cost tokens too). A worker
 * that dies in between leaves the estimate counted: the budget errs on the safe side. Logged without any content.
 */
export async function summarise(
  deps: Pick<Deps, "db" | "clock" | "log">,
  llm: LlmConfig,
  teamId: string,
  messages: ChatMessage[],
  logContext: LogContext,
): Promise<Summarised> {
  const day = DateTime.fromJSDate(deps.clock.now(), { zone: "utc" }).toISODate()!;
  const log = { team_id: teamId, ...logContext };
  const estimate = callEstimate(messages);
  if (!(await reserveTokens(deps.db, teamId, day, estimate, llm.dailyTokens))) {
    deps.log.info({ ...log, status: "skipped", reason: "budget" }, "AI summary skipped: daily token budget reached");
    return { ok: false, status: "skipped", reason: "budget", tokens: 0 };
  }
  const result = await complete(llm, messages);
  await settleTokens(deps.db, teamId, day, estimate, result.tokens);
  if (!result.ok) {
    deps.log.warn(
      { ...log, status: "failed", reason: result.reason, http_status: result.status },
      "AI summary failed; the plain summary stands",
    );
    return { ok: false, status: "failed", reason: result.reason, tokens: result.tokens };
  }
  deps.log.info({ ...log, status: "generated", tokens: result.tokens }, "AI summary generated");
  return result;
}
