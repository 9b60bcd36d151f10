import { DateTime } from "luxon";
import type { LlmConfig } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { addUsage, tokensSpent } from "./ai.repo.ts";
import { type ChatMessage, complete, type LlmFailure } from "./llm.client.ts";

export type Summarised =
  | { ok: true; text: string; tokens: number }
  | { ok: false; status: "failed" | "skipped"; reason: LlmFailure | "budget"; tokens: number };

/** What a log line says about the call: where, and how it went; never the prompt, the answers or the model's text. */
export type LogContext = Record<string, string | number>;

/**
 * One model call within the workspace's daily budget: skipped when the UTC day's tokens have reached
 * LLM_DAILY_TOKENS, else called and its tokens added to the day (whatever the outcome: a failed call may have cost
 * them too). Logged without any content.
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
  if ((await tokensSpent(deps.db, teamId, day)) >= llm.dailyTokens) {
    deps.log.info({ ...log, status: "skipped", reason: "budget" }, "AI summary skipped: daily token budget reached");
    return { ok: false, status: "skipped", reason: "budget", tokens: 0 };
  }
  const result = await complete(llm, messages);
  await addUsage(deps.db, teamId, day, result.tokens);
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
