/** The schedules feature's public face: other features import from here only. */
export { displayName } from "./names.ts";
export type { ScheduleRow } from "./schedules.repo.ts";
export { scheduleRoutes } from "./schedules.routes.ts";
export {
  CHANNEL_ID,
  createSchedule,
  DEFAULT_DAYS,
  deleteSchedule,
  getSchedule,
  listActiveSchedules,
  listSchedules,
  MAX_QUESTION_LENGTH,
  MAX_QUESTIONS,
  presentSchedule,
  SCHEDULE_ID,
  type ScheduleCreate,
  type ScheduleUpdate,
  type ScheduleView,
  scheduleCreateInput,
  schedulesToRun,
  scheduleUpdateInput,
  updateSchedule,
} from "./schedules.service.ts";
export {
  canonicalTimezone,
  DEFAULT_MAX_LATE_MINUTES,
  type DueRun,
  dueRun,
  formatDays,
  localDateOf,
  nextRunAfter,
  parseDays,
  parseTime,
  runStartFor,
  type ScheduleTiming,
  WEEKDAYS,
  type Weekday,
} from "./timing.ts";
