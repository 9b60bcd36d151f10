/** The calendar feature's public face: the workspace's timezone, "today", holidays and date windows. */

export {
  type CalendarRow,
  DEFAULT_WORKING_DAYS,
  deleteHoliday,
  type HolidayAuthor,
  type HolidayRow,
  type ListedHoliday,
  listHolidays,
  MAX_HOLIDAYS,
  putHoliday,
  putHolidays,
  readCalendar,
  readCalendars,
  saveCalendar,
  standupHolidaysIn,
} from "./calendar.manage.ts";
export {
  calendarZone,
  type HolidaysFor,
  holidaysBetween,
  todayIn,
  workspaceTimezone,
  workspaceTimezones,
  workspaceToday,
} from "./calendar.service.ts";
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
export { calendarPruneSteps, HOLIDAY_RETENTION_DAYS } from "./retention.ts";
