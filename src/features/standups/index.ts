/** The standups feature's public face: other features (and tests, demo, bench) import from here only. */
export { isActiveBlocker } from "./blockers.ts";
export { MAX_ANSWER_LENGTH, MOODS, type Mood } from "./messages.ts";
export { startScheduler, type TickResult, tick } from "./scheduler.ts";
export { standupJobs } from "./standups.jobs.ts";
export { standupListeners } from "./standups.listeners.ts";
export { standupRoutes } from "./standups.routes.ts";
