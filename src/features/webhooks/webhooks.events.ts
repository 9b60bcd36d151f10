import { WEBHOOK_EVENT_TYPES } from "../../contract/index.ts";
import type { Tx } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import type { DomainEvent } from "../../jobs/events.ts";
import { insertDeliveries } from "./deliveries.repo.ts";
import { subscribedEndpoints } from "./endpoints.repo.ts";
import { envelope, eventData } from "./payloads.ts";
import { generateMessageId } from "./signing.ts";

const SUBSCRIBABLE = new Set<string>(WEBHOOK_EVENT_TYPES);

/**
 * Runs in the emitter's transaction (see EventBus): for each active endpoint of the workspace that takes this
 * type, a delivery row and its job, so a delivery exists exactly when the change does. Types are matched as
 * strings, so events declared by other features (kudos.given) need nothing here. No network calls.
 */
export async function recordDeliveries(deps: Pick<Deps, "queue">, tx: Tx, event: DomainEvent): Promise<number> {
  if (!SUBSCRIBABLE.has(event.type)) return 0;
  const endpoints = await subscribedEndpoints(tx, event.teamId, event.type);
  if (endpoints.length === 0) return 0;
  const messageId = generateMessageId();
  const payload = envelope({
    id: messageId,
    type: event.type,
    created_at: event.at.toISOString(),
    team_id: event.teamId,
    data: await eventData(tx, event),
  });
  const created = await insertDeliveries(
    tx,
    endpoints.map((endpointId) => ({
      teamId: event.teamId,
      endpointId,
      messageId,
      type: event.type,
      payload,
      createdAt: event.at,
    })),
  );
  for (const d of created) {
    await deps.queue.enqueue("webhook.deliver", { teamId: d.teamId, deliveryId: d.id }, { tx });
  }
  return created.length;
}

export function webhookEvents(deps: Deps): void {
  deps.events.onAny((tx, event) => recordDeliveries(deps, tx, event).then(() => undefined));
}
