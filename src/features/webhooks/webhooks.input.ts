import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../../contract/index.ts";
import { MAX_URL_LENGTH } from "./address-policy.ts";

const ALLOWED = WEBHOOK_EVENT_TYPES.join(", ");
const EVENTS_MESSAGE = `events must be an array of event types from: ${ALLOWED}`;

/** The body of POST /dashboard/api/webhooks; every message names its field (and the allowed event types). */
export const createEndpointInput = z.object(
  {
    url: z
      .string({ error: (iss) => (iss.input === undefined ? "url is required" : "url must be a string") })
      .meta({ description: `The https:// address to POST deliveries to, at most ${MAX_URL_LENGTH} characters` }),
    events: z
      .array(z.unknown(), { error: EVENTS_MESSAGE })
      .meta({
        description: `Event types to receive; default all of: ${ALLOWED}`,
        items: { type: "string", enum: [...WEBHOOK_EVENT_TYPES] },
      })
      .transform((list, ctx): WebhookEventType[] => {
        if (list.length === 0) {
          ctx.addIssue({ code: "custom", message: `events must list at least one of: ${ALLOWED}` });
          return z.NEVER;
        }
        for (const [i, item] of list.entries()) {
          if (typeof item !== "string" || !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(item)) {
            const shown = typeof item === "string" ? `"${item.slice(0, 60)}"` : typeof item;
            ctx.addIssue({ code: "custom", message: `events[${i}] (${shown}) must be one of: ${ALLOWED}` });
            return z.NEVER;
          }
        }
        return WEBHOOK_EVENT_TYPES.filter((t) => list.includes(t));
      })
      .nullish(),
  },
  { error: "Request body must be a JSON object" },
);
export type CreateEndpointInput = z.output<typeof createEndpointInput>;
