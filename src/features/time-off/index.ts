/** The time-off feature's public face: app.ts wires it in; standups reads who is away and adds the command and App Home part. */

export { timeOffPersonalData } from "./personal-data.ts";
export { timeOffPruneSteps } from "./retention.ts";
export { awayOnSql, selectAwayOn } from "./time-off.repo.ts";
export { timeOffRoutes } from "./time-off.routes.ts";
export { comeBack, removeRange, setAway, TIME_OFF_RETENTION_DAYS, upcomingRanges } from "./time-off.service.ts";
export {
  AWAY_USAGE,
  TIME_OFF_ACTIONS,
  TIME_OFF_MODAL,
  type TimeOffReply,
  timeOffCommand,
  timeOffHomeBlocks,
  timeOffListeners,
} from "./time-off.slack.ts";
