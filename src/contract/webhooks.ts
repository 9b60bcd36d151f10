import { z } from "zod";
import { errorBody, isoTimestamp } from "./common.ts";

/** What an endpoint can subscribe to; `webhook.test` is sent on request only and needs no subscription. */
export const WEBHOOK_EVENT_TYPES = [
  "standup.submitted",
  "standup.updated",
  "blocker.reported",
  "standup.completed",
  "kudos.given",
  "blocker.resolved",
] as const;

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

export const webhookEndpoint = z
  .object({
    id: z.number().int(),
    url: z.string().describe("The https:// address deliveries are POSTed to"),
    created_at: isoTimestamp,
    events: z.array(webhookEventType).describe("The event types it receives"),
    active: z.boolean().describe("False once disabled: it receives nothing more"),
    disabled_reason: z.string().nullable().describe("Why it was disabled (a 410 answer, or 5 days of failures)"),
    disabled_at: isoTimestamp.nullable(),
  })
  .meta({ id: "WebhookEndpoint" });

export const createdWebhookEndpoint = webhookEndpoint
  .pick({ id: true, url: true, created_at: true, events: true, active: true })
  .extend({
    secret: z
      .string()
      .describe("`whsec_` + base64 of 32 random bytes: the signing secret, shown only in this response"),
  })
  .meta({ id: "CreatedWebhookEndpoint" });

export const webhookDelivery = z
  .object({
    id: z.number().int(),
    message_id: z.string().describe("The body's id and the webhook-id header, the same on every attempt"),
    type: z.string().describe("The event type, or webhook.test"),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable().describe("The HTTP status of the last attempt, if it got one"),
    last_error: z.string().nullable().describe("Why the last attempt failed"),
    next_attempt_at: isoTimestamp.nullable().describe("When the next attempt is due, while pending"),
    last_attempt_at: isoTimestamp.nullable(),
    created_at: isoTimestamp,
  })
  .meta({ id: "WebhookDelivery" });

/**
 * Why an endpoint URL was refused. loopback, private: an address inside a network (WEBHOOK_ALLOW_PRIVATE allows
 * them); link_local, metadata, special: never allowed; single_label_name, internal_name: a name only a network knows
 * (WEBHOOK_ALLOW_PRIVATE allows them); resolves_non_public: the name resolves inside a network; the rest the URL's
 * shape or a name that does not resolve.
 */
export const WEBHOOK_URL_REFUSALS = [
  "loopback",
  "private",
  "link_local",
  "metadata",
  "special",
  "too_long",
  "invalid_url",
  "not_https",
  "credentials",
  "fragment",
  "port",
  "single_label_name",
  "internal_name",
  "resolves_non_public",
  "does_not_resolve",
] as const;

export const webhookUrlRefused = errorBody
  .extend({
    refusal: z
      .enum(WEBHOOK_URL_REFUSALS)
      .optional()
      .describe("Why the url was refused, as a code (absent for other invalid input)"),
  })
  .meta({ id: "WebhookUrlRefused" });
