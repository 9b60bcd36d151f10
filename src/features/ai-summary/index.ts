/** The AI summaries feature's public face: the close-of-run job, the digest's weekly summaries and the stored rows. */

export { aiSummaryJob, aiSummaryJobs } from "./ai.jobs.ts";
export { findRunSummary, STALE_CLAIM_MS } from "./ai.repo.ts";
export { type WeekSummary, weekAiSummaries } from "./digest.ts";
export { findRunOf, openBlockerCount, pickRun, runCounts } from "./inputs.ts";
export { complete, type LlmResult } from "./llm.client.ts";
export { aiSummaryPostKey, generatedLabel } from "./message.ts";
export { aiSummaryPersonalData } from "./personal-data.ts";
