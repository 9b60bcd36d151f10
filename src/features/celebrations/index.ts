/** The Celebrations feature's public face: settings, holidays, upcoming, asking for dates and the daily post. */
export { celebrationJobs } from "./celebrations.jobs.ts";
export { celebrationRoutes } from "./celebrations.routes.ts";
export { celebrationsTick, startCelebrationsScheduler } from "./celebrations.scheduler.ts";
export { readSettings, writeSettings } from "./celebrations.service.ts";
export { celebrationsPersonalData } from "./personal-data.ts";
