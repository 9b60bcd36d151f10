/** The standups feature's public face: other features, the demo and the benchmarks import from here only. */
export { isActiveBlocker } from "./blockers.ts";
export {
  type ImportedHistory,
  importHistory,
  type PastAnswer,
  type PastParticipant,
  type PastRun,
} from "./history.repo.ts";
export { MOODS } from "./messages.ts";
export { TICK_MS, tick } from "./scheduler.ts";
