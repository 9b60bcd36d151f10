import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { llmEnv, startFakeLlm } from "../../../test/support/fake-llm.ts";
import { llmUsage } from "../../db/schema.ts";
import { type ChatMessage, callEstimate } from "./llm.client.ts";
import { summarise } from "./summarise.ts";

const TEAM = "T0AIBG";

/** 400 characters of prompt: 100 tokens by estimate, plus 600 for the longest answer, so 700 reserved per call. */
const messages = (n: number): ChatMessage[] => [
  { role: "system", content: "s".repeat(100) },
  { role: "user", content: `${n}`.padEnd(300, "u") },
];

describe("the daily token budget", async () => {
  const llm = await startFakeLlm();
  afterAll(() => llm.close());
  // Room for one call's reservation (700), not two.
  const t = await useTestApp({ env: llmEnv(llm, { LLM_DAILY_TOKENS: "1000" }), clock: undefined });

  it("is reserved before the call: of two summaries at once only one calls the model, then settles to its cost", async () => {
    expect(callEstimate(messages(1))).toBe(700);
    t.clock.set("2026-03-02T10:00:00Z");
    // Both calls are in flight together: a check made before either is counted would let both through.
    llm.mode = { kind: "ok", delayMs: 300 };
    const llmConfig = t.deps.config.llm!;
    const results = await Promise.all(
      [1, 2].map((n) => summarise(t.deps, llmConfig, TEAM, messages(n), { run_id: n })),
    );
    expect(llm.requests).toHaveLength(1);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, status: "skipped", reason: "budget", tokens: 0 }]);
    // Settled to what the server reported (321), the skipped one not counted as a call.
    const [usage] = await t.deps.db.select().from(llmUsage).where(eq(llmUsage.teamId, TEAM));
    expect(usage).toMatchObject({ day: "2026-03-02", tokens: 321, calls: 1 });

    // 321 + 700 is over 1000: the next call is skipped too; a failed call gives its reservation back.
    expect(await summarise(t.deps, llmConfig, TEAM, messages(3), { run_id: 3 })).toMatchObject({
      ok: false,
      reason: "budget",
    });
    t.clock.set("2026-03-03T10:00:00Z");
    llm.mode = { kind: "status", status: 500 };
    expect(await summarise(t.deps, llmConfig, TEAM, messages(4), { run_id: 4 })).toMatchObject({
      ok: false,
      status: "failed",
      reason: "http_error",
    });
    expect(llm.requests).toHaveLength(2);
    const [next] = await t.deps.db.select().from(llmUsage).where(eq(llmUsage.day, "2026-03-03"));
    expect(next).toMatchObject({ teamId: TEAM, tokens: 0, calls: 1 });
  });
});
