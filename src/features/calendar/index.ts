/** The calendar feature's public face: the workspace's timezone, "today", holidays and date windows. */
export { holidaysBetween, todayIn, workspaceTimezone, workspaceTimezones, workspaceToday } from "./calendar.service.ts";
export {
  completeWindow,
  type DateWindow,
  daysBetween,
  isRealDate,
  MAX_DAYS,
  MAX_SPAN_DAYS,
  resolveWindow,
  shiftDate,
} from "./date-window.ts";
