/** The insights feature's public face: other features, the demo and the benchmarks import from here only. */
export { csvChunks, exportRows } from "./export.routes.ts";
export {
  blockersByDay,
  memberParticipation,
  moodCounts,
  participationByDay,
  standupsBetween,
  statsFor,
} from "./insights.repo.ts";
export { resolveWindow, shiftDate, workspaceTimezone } from "./window.ts";
