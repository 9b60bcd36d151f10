import type { LlmConfig } from "../../config.ts";

/** One call to an OpenAI-compatible chat completions API (OpenAI, Azure OpenAI, Ollama, vLLM, LiteLLM). */

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/** Why a call gave no summary: said in the stored row and the log, never with the model's text. */
export type LlmFailure = "timeout" | "http_error" | "bad_json" | "empty" | "network";

export type LlmResult =
  | { ok: true; text: string; tokens: number }
  | { ok: false; reason: LlmFailure; status: number | null; tokens: number };

/** The answer is a few sentences: this is plenty, and caps what a call can cost. */
export const MAX_COMPLETION_TOKENS = 600;
/** Low: a summary should restate the answers, not invent. */
const TEMPERATURE = 0.2;
/** Rough characters per token, for servers that do not report usage. */
const CHARS_PER_TOKEN = 4;
/** A summary is short; a runaway answer is cut before it is stored or posted. */
export const MAX_SUMMARY_CHARS = 4_000;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The most a call of these messages can cost: the prompt's estimate plus the longest answer allowed. */
export function callEstimate(messages: readonly ChatMessage[]): number {
  return estimateTokens(messages.reduce((n, m) => n + m.content.length, 0)) + MAX_COMPLETION_TOKENS;
}

interface Completion {
  choices?: { message?: { content?: unknown } }[];
  usage?: { total_tokens?: unknown };
}

/**
 * Posts the messages and returns the text, or why there is none. Never throws: a timeout, a refusal, a body that is
 * not the expected JSON and an empty answer are all results, so the caller records them and the plain summary stays.
 */
export async function complete(llm: LlmConfig, messages: ChatMessage[]): Promise<LlmResult> {
  const sent = messages.reduce((n, m) => n + m.content.length, 0);
  // Tokens the server counted when it says so; otherwise what the prompt alone would cost (it was sent either way).
  const guess = estimateTokens(sent);
  let res: Response;
  try {
    res = await fetch(`${llm.apiUrl}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: llm.model, messages, temperature: TEMPERATURE, max_tokens: MAX_COMPLETION_TOKENS }),
      signal: AbortSignal.timeout(llm.timeoutMs),
    });
  } catch (err) {
    const name = (err as { name?: string })?.name;
    const reason = name === "TimeoutError" || name === "AbortError" ? "timeout" : "network";
    return { ok: false, reason, status: null, tokens: reason === "timeout" ? guess : 0 };
  }
  let body: Completion;
  try {
    // The body is read under the same timeout signal: a server that stalls mid-answer ends as a timeout too.
    const raw = await res.text();
    if (!res.ok) return { ok: false, reason: "http_error", status: res.status, tokens: 0 };
    body = JSON.parse(raw) as Completion;
  } catch (err) {
    const name = (err as { name?: string })?.name;
    if (name === "TimeoutError" || name === "AbortError") {
      return { ok: false, reason: "timeout", status: res.status, tokens: guess };
    }
    return { ok: false, reason: res.ok ? "bad_json" : "http_error", status: res.status, tokens: 0 };
  }
  const content = body?.choices?.[0]?.message?.content;
  const reported = body?.usage?.total_tokens;
  const text = typeof content === "string" ? content.trim().slice(0, MAX_SUMMARY_CHARS) : "";
  const tokens =
    typeof reported === "number" && Number.isFinite(reported) && reported >= 0
      ? Math.round(reported)
      : guess + estimateTokens(text.length);
  if (typeof content !== "string" && content !== undefined && content !== null) {
    return { ok: false, reason: "bad_json", status: res.status, tokens };
  }
  if (!text) return { ok: false, reason: "empty", status: res.status, tokens };
  return { ok: true, text, tokens };
}
