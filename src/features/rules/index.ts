/** The workflow rules feature's public face: app.ts wires its routes, job, listeners and event subscribers. */

export { rulesPersonalData } from "./personal-data.ts";
export { rulePruneSteps } from "./retention.ts";
export { ruleSubscribers } from "./rules.events.ts";
export { MAX_RULES, MOOD_RANGE, PARTICIPATION_RANGE } from "./rules.input.ts";
export { FIRING_RETENTION_DAYS, ruleJobs } from "./rules.jobs.ts";
export { ruleListeners } from "./rules.listeners.ts";
export { ruleRoutes } from "./rules.routes.ts";
export { createRule, deleteRule, listRules, updateRule } from "./rules.service.ts";
