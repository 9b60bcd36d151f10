/** The webhooks feature's public face: the app wires these (routes, jobs, the event subscriber, the sweeper). */

/** The OAuth feature fetches clients' metadata documents under the same address policy (SSRF). */
export { type AddressPolicy, checkUrl, resolveTarget, type UrlCheck } from "./address-policy.ts";
export { webhooksPersonalData } from "./personal-data.ts";
export { webhookPruneSteps } from "./retention.ts";
export { webhookEvents } from "./webhooks.events.ts";
export { DELIVERY_RETENTION_MS, startWebhookSweeper, webhookJobs } from "./webhooks.jobs.ts";
export { webhookRoutes } from "./webhooks.routes.ts";
/** The demo adds its endpoint as the dashboard would. */
export { createEndpoint, listEndpoints } from "./webhooks.service.ts";
