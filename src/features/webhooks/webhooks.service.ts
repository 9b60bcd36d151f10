import {
  type CreatedWebhookEndpoint,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "../../contract/index.ts";
import type { Deps } from "../../deps.ts";
import { AppError, conflict, notFound } from "../../http/errors.ts";
import { encryptSecret } from "../../lib/crypto.ts";
import { FORMER_MEMBER } from "../../lib/person-names.ts";
import { type AddressPolicy, checkUrl, resolveTarget, type UrlRefusal } from "./address-policy.ts";
import { type DeliveryRow, findDelivery, insertDeliveries, selectDeliveries } from "./deliveries.repo.ts";
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  findEndpoint,
  insertEndpoint,
  lockWorkspace,
  selectEndpoints,
} from "./endpoints.repo.ts";
import { selectNames } from "./payloads.repo.ts";
import { envelope } from "./payloads.ts";
import { generateMessageId, generateSecret } from "./signing.ts";
import type { CreateEndpointInput } from "./webhooks.input.ts";

/** Endpoints a workspace may have, disabled ones included (they stay listed until deleted). */
export const MAX_ENDPOINTS = 20;
/** The deliveries log shows this many, newest first. */
export const DELIVERIES_SHOWN = 100;
/** serial is a 32-bit integer: a larger id cannot exist, and must not reach the database as a parameter. */
const MAX_SERIAL = 2_147_483_647;

type ServiceDeps = Pick<Deps, "db" | "clock" | "queue" | "config" | "outbound" | "keys">;

export function addressPolicy(deps: Pick<Deps, "config" | "outbound">): AddressPolicy {
  return { allowPrivate: deps.config.webhookAllowPrivate, allowPlainHttp: deps.outbound.allowPlainHttp };
}

const DISABLED_REASONS: Record<string, string> = {
  gone: "The endpoint answered 410 Gone",
  failing: "Every delivery failed for 5 days",
};

export function presentEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    created_at: row.createdAt.toISOString(),
    events: WEBHOOK_EVENT_TYPES.filter((t) => row.events.includes(t)),
    active: row.disabledAt === null,
    disabled_reason: row.disabledReason ? (DISABLED_REASONS[row.disabledReason] ?? row.disabledReason) : null,
    disabled_at: row.disabledAt?.toISOString() ?? null,
  };
}

export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    message_id: row.messageId,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Unknown, malformed and other workspaces' ids are all 404, so existence does not leak. */
function endpointId(raw: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  if (id < 1 || id > MAX_SERIAL) throw notFound("Webhook endpoint not found");
  return id;
}

/** A refused endpoint URL: a 400 whose body says why as a code (`refusal`) beside the message. */
export class UrlRefusedError extends AppError {
  constructor(
    message: string,
    readonly refusal: UrlRefusal,
  ) {
    super(400, "bad_request", message);
  }
}

/**
 * Checks the address (scheme, credentials, host; a name is resolved and every address it has checked), then
 * stores the endpoint with a new secret, encrypted, under the workspace's cap. The secret is in this answer only.
 */
export async function createEndpoint(
  deps: ServiceDeps,
  teamId: string,
  createdBy: string,
  input: CreateEndpointInput,
): Promise<CreatedWebhookEndpoint> {
  const policy = addressPolicy(deps);
  const checked = checkUrl(input.url, policy);
  if (!checked.ok) throw new UrlRefusedError(checked.error, checked.refusal);
  const resolved = await resolveTarget(checked.target, deps.outbound, policy);
  if (!resolved.ok)
    throw new UrlRefusedError(
      `url host ${resolved.error}`,
      resolved.refused ? "resolves_non_public" : "does_not_resolve",
    );
  const secret = generateSecret();
  const row = await deps.db.transaction(async (tx) => {
    // Held to the end of the transaction: concurrent creations in this workspace count one after the other.
    if (!(await lockWorkspace(tx, teamId))) throw notFound("Workspace not found");
    if ((await countEndpoints(tx, teamId)) >= MAX_ENDPOINTS) {
      throw conflict(`A workspace can have at most ${MAX_ENDPOINTS} webhook endpoints: delete one first`);
    }
    return insertEndpoint(tx, {
      teamId,
      url: checked.url.href,
      events: [...(input.events ?? WEBHOOK_EVENT_TYPES)],
      secretEnc: encryptSecret(deps.keys.tokenEncryption, secret),
      createdBy,
      createdAt: deps.clock.now(),
    });
  });
  const { id, url, created_at, events, active } = presentEndpoint(row);
  return { id, url, created_at, secret, events, active };
}

export async function listEndpoints(deps: Pick<Deps, "db">, teamId: string): Promise<WebhookEndpoint[]> {
  return (await selectEndpoints(deps.db, teamId)).map(presentEndpoint);
}

export async function removeEndpoint(deps: Pick<Deps, "db">, teamId: string, rawId: string): Promise<{ ok: true }> {
  const id = endpointId(rawId);
  const deleted = await deps.db.transaction((tx) => deleteEndpoint(tx, teamId, id));
  if (!deleted) throw notFound("Webhook endpoint not found");
  return { ok: true };
}

export async function listDeliveries(
  deps: Pick<Deps, "db">,
  teamId: string,
  rawId: string,
): Promise<WebhookDelivery[]> {
  const id = endpointId(rawId);
  if (!(await findEndpoint(deps.db, teamId, id))) throw notFound("Webhook endpoint not found");
  return (await selectDeliveries(deps.db, teamId, id, DELIVERIES_SHOWN)).map(presentDelivery);
}

/**
 * A `webhook.test` delivery, signed and retried like any other; the answer is the pending delivery, whose fate
 * the deliveries log shows. A disabled endpoint takes nothing (409).
 */
export async function sendTest(
  deps: ServiceDeps,
  teamId: string,
  userId: string,
  rawId: string,
): Promise<WebhookDelivery> {
  const id = endpointId(rawId);
  return deps.db.transaction(async (tx) => {
    const endpoint = await findEndpoint(tx, teamId, id);
    if (!endpoint) throw notFound("Webhook endpoint not found");
    if (endpoint.disabledAt) throw conflict("This endpoint is disabled and receives nothing: add it again instead");
    const now = deps.clock.now();
    const messageId = generateMessageId();
    const names = await selectNames(tx, teamId, [userId]);
    const payload = envelope({
      id: messageId,
      type: "webhook.test",
      created_at: now.toISOString(),
      team_id: teamId,
      data: {
        endpoint_id: id,
        message: "A test delivery from Upbeat: this endpoint is reachable and can check the signature.",
        sent_by: { id: userId, name: names.get(userId) ?? FORMER_MEMBER },
      },
    });
    const [created] = await insertDeliveries(tx, [
      { teamId, endpointId: id, messageId, type: "webhook.test", payload, createdAt: now },
    ]);
    if (!created) throw new AppError(500, "internal", "The test delivery could not be stored");
    await deps.queue.enqueue("webhook.deliver", { teamId, deliveryId: created.id }, { tx });
    return presentDelivery((await findDelivery(tx, teamId, created.id))!);
  });
}
