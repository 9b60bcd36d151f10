/** The standups feature's public face: other features (and tests, demo, bench) import from here only. */

export { type SubmitOutcome, skipRun, submitResponse } from "./answers.service.ts";
export { standupTimeOffSubscriber } from "./away.ts";
export {
  type BlockerItem,
  type BlockerResolvedEvent,
  blockerAgeDays,
  confirmStillBlocked,
  findBlocker,
  liveBlockerSql,
  MAX_RESOLUTION_NOTE,
  openBlockerOf,
  openBlockersFromHistory,
  type ResolveOutcome,
  resolveBlocker,
} from "./blocker-items.ts";
export { isActiveBlocker } from "./blockers.ts";
export { scheduleName } from "./dm-conversation.repo.ts";
export type { StandupCompletedEvent, StandupResponseEvent } from "./events.ts";
export {
  type ImportedHistory,
  importHistory,
  type PastAnswer,
  type PastParticipant,
  type PastRun,
} from "./history.repo.ts";
export { buildHomeView } from "./home.ts";
export { MAX_ANSWER_LENGTH, MOODS, type Mood, prettyDate, slackEscape, VIA_MCP_NOTE } from "./messages.ts";
export { openRunsOfMember } from "./participants.repo.ts";
export { standupsPersonalData } from "./personal-data.ts";
export { findResponseOfRun } from "./responses.repo.ts";
export { standupPruneSteps } from "./retention.ts";
export { runNow } from "./run-now.ts";
export { findRun, type RunRow } from "./runs.repo.ts";
export { startScheduler, TICK_MS, type TickResult, tick } from "./scheduler.ts";
export { standupJobs } from "./standups.jobs.ts";
export { standupListeners } from "./standups.listeners.ts";
export { standupRoutes } from "./standups.routes.ts";
export { answerHint, parseDmAnswer, runQuestions } from "./typed-answers.ts";
