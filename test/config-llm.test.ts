import { describe, expect, it } from "vitest";
import { loadConfig, MAX_LLM_TIMEOUT_MS } from "../src/config.ts";
import { STALE_CLAIM_MS } from "../src/features/ai-summary/index.ts";
import { configProblems } from "./support/config.ts";

const PROD = {
  NODE_ENV: "production",
  CHAT_CLIENT_ID: "123.456",
  CHAT_CLIENT_SECRET: "client-secret",
  CHAT_SIGNING_SECRET: "signing-secret",
  DATABASE_URL: "postgres://u:p@127.0.0.1:5432/upbeat",
  APP_URL: "https://upbeat.example.com/",
  SESSION_SECRET_KEY: "k".repeat(40),
};

describe("LLM_* configuration (AI summaries)", () => {
  it("is off unless LLM_API_URL is set", () => {
    expect(loadConfig(PROD).llm).toBeUndefined();
  });

  it("reads the URL (any address, Ollama on localhost included), the key, the model and the defaults", () => {
    const c = loadConfig({ ...PROD, LLM_API_URL: "http://127.0.0.1:11434/v1/", LLM_MODEL: "llama3.1" });
    expect(c.llm).toEqual({
      apiUrl: "http://127.0.0.1:11434/v1",
      apiKey: undefined,
      model: "llama3.1",
      timeoutMs: 30_000,
      dailyTokens: 200_000,
    });
    const withKey = loadConfig({
      ...PROD,
      LLM_API_URL: "https://api.openai.com/v1",
      LLM_API_KEY: "sk-abc",
      LLM_MODEL: "gpt-4o-mini",
      LLM_TIMEOUT_MS: "5000",
      LLM_DAILY_TOKENS: "1000",
    });
    expect(withKey.llm).toMatchObject({ apiKey: "sk-abc", timeoutMs: 5000, dailyTokens: 1000 });
  });

  it("names each problem: no model, a bad URL, credentials in the URL, bad numbers, a model without a URL", () => {
    expect(configProblems({ ...PROD, LLM_API_URL: "https://api.openai.com/v1" })).toContain(
      "LLM_MODEL is required with LLM_API_URL (the model name, such as gpt-4o-mini or llama3.1)",
    );
    const found = configProblems({
      ...PROD,
      LLM_API_URL: "ftp://models",
      LLM_MODEL: "m",
      LLM_TIMEOUT_MS: "soon",
      LLM_DAILY_TOKENS: "-1",
    });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^LLM_API_URL must be an http\(s\) URL/),
        expect.stringMatching(/^LLM_TIMEOUT_MS must be/),
        expect.stringMatching(/^LLM_DAILY_TOKENS must be/),
      ]),
    );
    expect(configProblems({ ...PROD, LLM_API_URL: "https://u:secret@llm.example/v1", LLM_MODEL: "m" })).toContain(
      "LLM_API_URL must not contain credentials: put the key in LLM_API_KEY",
    );
    expect(configProblems({ ...PROD, LLM_MODEL: "m" })).toContain(
      "LLM_MODEL is set but LLM_API_URL is not: set both to use AI summaries",
    );
  });

  it("caps LLM_TIMEOUT_MS at 2 minutes, well inside the 10 minutes after which a summary's claim is taken over", () => {
    const base = { ...PROD, LLM_API_URL: "https://api.openai.com/v1", LLM_MODEL: "m" };
    expect(loadConfig({ ...base, LLM_TIMEOUT_MS: "120000" }).llm?.timeoutMs).toBe(120_000);
    expect(configProblems({ ...base, LLM_TIMEOUT_MS: "120001" })).toContain(
      "LLM_TIMEOUT_MS must be an integer 100-120000 (milliseconds)",
    );
    expect(configProblems({ ...base, LLM_TIMEOUT_MS: "600000" })).toContain(
      "LLM_TIMEOUT_MS must be an integer 100-120000 (milliseconds)",
    );
    expect(STALE_CLAIM_MS).toBe(10 * 60_000);
    expect(STALE_CLAIM_MS).toBeGreaterThanOrEqual(2 * MAX_LLM_TIMEOUT_MS);
  });
});
