/** The schedules feature's public face: other features import from here only. */
export { displayName, UNKNOWN_CHANNEL_STANDUP } from "./names.ts";
export {
  channelNames as standupChannelNames,
  defaultName,
  nextRunOf,
  participantsByChannel,
  type ScheduleView,
} from "./schedules.details.ts";
export {
  CHANNEL_ID,
  DEFAULT_DAYS,
  DEFAULT_REMINDER_MINUTES,
  MAX_NAME_LENGTH,
  MAX_QUESTION_LENGTH,
  MAX_QUESTIONS,
  MAX_REMINDER_MINUTES,
  MIN_REMINDER_MINUTES,
  type ScheduleCreate,
  type ScheduleUpdate,
  scheduleCreateInput,
  scheduleUpdateInput,
} from "./schedules.input.ts";
export { restartTiming, type ScheduleRow } from "./schedules.repo.ts";
export { scheduleRoutes } from "./schedules.routes.ts";
export {
  createSchedule,
  deleteSchedule,
  findSchedule,
  getSchedule,
  listScheduleRows,
  listSchedules,
  SCHEDULE_ID,
  schedulesToRun,
  storeSchedule,
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
