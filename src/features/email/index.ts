/** The e-mail feature's public face: app.ts wires it in, the install queues the welcome through it. */
export { DIGEST_HOUR, DIGEST_TICK_MS, digestTick, dueDigestWeek, startDigestScheduler } from "./digest.scheduler.ts";
export { deliverEmail, emailJobs } from "./email.jobs.ts";
export { emailRoutes } from "./email.routes.ts";
export { emailPersonalData } from "./personal-data.ts";
export { queueReinstallEmails } from "./reinstall.service.ts";
export { unsubscribeUrl } from "./unsubscribe.token.ts";
export { queueWelcome, WELCOME_KEY } from "./welcome.service.ts";
