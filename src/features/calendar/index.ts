/** The calendar feature's public face: the workspace's timezone, "today", holidays and date windows. */

export {
  type CalendarRow,
  DEFAULT_WORKING_DAYS,
  deleteHoliday,
  type HolidayRow,
  holidaysIn,
  listHolidays,
  MAX_HOLIDAYS,
  putHoliday,
  putHolidays,
  readCalendar,
  readCalendars,
  saveCalendar,
} from "./calendar.manage.ts";
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
