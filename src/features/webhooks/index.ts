/** The webhooks feature's public face: the app wires these; nothing else depends on webhooks. */
export { checkAddress, checkUrl, MAX_URL_LENGTH } from "./address-policy.ts";
export { FAILING_DISABLE_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./retry-schedule.ts";
export { ATTEMPT_TIMEOUT_MS, MAX_RESPONSE_BYTES, USER_AGENT } from "./sender.ts";
export { webhookEvents } from "./webhooks.events.ts";
export {
  DELIVERY_RETENTION_MS,
  pruneWebhookDeliveries,
  startWebhookSweeper,
  sweepDeliveries,
  webhookJobs,
} from "./webhooks.jobs.ts";
export { webhookRoutes } from "./webhooks.routes.ts";
export { DELIVERIES_SHOWN, MAX_ENDPOINTS } from "./webhooks.service.ts";
