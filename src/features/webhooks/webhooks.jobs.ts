import { InstallationGoneError } from "../../chat/chat-clients.ts";
import { postKey } from "../../chat/post-keys.ts";
import { postOnce } from "../../chat/post-once.ts";
import { openDm } from "../../chat/slack-calls.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import type { Deps } from "../../deps.ts";
import type { StopTicker } from "../../jobs/ticker.ts";
import { decryptSecret } from "../../lib/crypto.ts";
import { RetryLaterError } from "../../lib/retry-later.ts";
import {
  type ClaimedAttempt,
  claimAttempt,
  finishDelivery,
  pruneDeliveries,
  scheduleRetry,
  takeOverdue,
} from "./deliveries.repo.ts";
import { type DisableReason, disableEndpoint, findEndpoint, recordFailure, recordSuccess } from "./endpoints.repo.ts";
import { selectAdmins } from "./payloads.repo.ts";
import { ATTEMPT_LEASE_MS, FAILING_DISABLE_MS, FAILURE_STREAK_GAP_MS, nextAttemptAt } from "./retry-schedule.ts";
import { type AttemptOutcome, attempt } from "./sender.ts";
import { sign } from "./signing.ts";
import { addressPolicy, DELIVERIES_SHOWN } from "./webhooks.service.ts";

declare module "../../jobs/queue.ts" {
  interface JobPayloads {
    "webhook.deliver": { teamId: string; deliveryId: number };
    "webhook.disabled": { teamId: string; endpointId: number; disabledAt: string };
  }
}

/** Deliveries are kept this long (and each endpoint's newest DELIVERIES_SHOWN finished ones at most). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
export const SWEEP_MS = 30_000;
/** A due attempt is left this long to its own job before the sweeper sends it. */
export const SWEEP_GRACE_MS = 60_000;
const PRUNE_EVERY_MS = 3600_000;
/** A sweep enqueues at most one job per delivery attempt in a slot this long. */
const SWEEP_SINGLETON_SECONDS = 3600;
/** Due deliveries re-enqueued per sweep at most. */
const SWEEP_BATCH = 500;

type JobDeps = Pick<Deps, "db" | "clock" | "queue" | "log" | "config" | "outbound" | "keys" | "chat" | "metrics">;

/**
 * Records an attempt's outcome in one transaction: delivered; or retried on the schedule (the next attempt's job
 * is enqueued with it); or failed for good. A 410 disables the endpoint at once; so does failing every attempt
 * for 5 days. Disabling ends the endpoint's pending deliveries and enqueues the admins' notice, once.
 */
async function recordOutcome(deps: JobDeps, claimed: ClaimedAttempt, outcome: AttemptOutcome): Promise<void> {
  const at = deps.clock.now();
  const result = {
    statusCode: outcome.kind === "failed" ? null : outcome.status,
    error: outcome.kind === "delivered" ? null : outcome.error,
  };
  let given: "failed" | "retry_scheduled" = "failed";
  const disabled = await deps.db.transaction(async (tx): Promise<DisableReason | undefined> => {
    if (outcome.kind === "delivered") {
      await finishDelivery(tx, claimed, "delivered", result, at);
      await recordSuccess(tx, claimed.teamId, claimed.endpointId, at);
      return undefined;
    }
    const gone = outcome.kind === "rejected" && outcome.status === 410;
    const next = gone ? undefined : nextAttemptAt(claimed.attempt, at);
    given = next === undefined ? "failed" : "retry_scheduled";
    if (next === undefined) {
      await finishDelivery(tx, claimed, "failed", result, at);
    } else if (await scheduleRetry(tx, claimed, result, next)) {
      // On time in production; if it runs early by this instance's clock it does nothing and the sweeper sends it.
      await deps.queue.enqueue(
        "webhook.deliver",
        { teamId: claimed.teamId, deliveryId: claimed.id },
        { tx, startAfter: next },
      );
    }
    const failingSince = await recordFailure(tx, claimed.teamId, claimed.endpointId, at, FAILURE_STREAK_GAP_MS);
    const reason: DisableReason | undefined = gone
      ? "gone"
      : failingSince && at.getTime() - failingSince.getTime() >= FAILING_DISABLE_MS
        ? "failing"
        : undefined;
    if (!reason || !(await disableEndpoint(tx, claimed.teamId, claimed.endpointId, reason, at))) return undefined;
    await deps.queue.enqueue(
      "webhook.disabled",
      { teamId: claimed.teamId, endpointId: claimed.endpointId, disabledAt: at.toISOString() },
      { tx },
    );
    return reason;
  });
  const fields = {
    team_id: claimed.teamId,
    endpoint_id: claimed.endpointId,
    delivery_id: claimed.id,
    attempt: claimed.attempt,
    job: "webhook.deliver",
  };
  deps.metrics.webhookDeliveries.inc({ outcome: outcome.kind === "delivered" ? "delivered" : given });
  if (outcome.kind === "delivered") deps.log.info({ ...fields, status: outcome.status }, "webhook delivered");
  // A customer's endpoint being down is expected: a warning, not an error.
  else deps.log.warn({ ...fields, status: result.statusCode, error: outcome.error }, "webhook attempt failed");
  if (disabled) deps.log.warn({ ...fields, reason: disabled }, "webhook endpoint disabled");
}

/** One attempt of one delivery, if it is due and this worker claims it; otherwise nothing. */
export async function deliver(deps: JobDeps, teamId: string, deliveryId: number): Promise<void> {
  const now = deps.clock.now();
  const claimed = await claimAttempt(deps.db, teamId, deliveryId, now, new Date(now.getTime() + ATTEMPT_LEASE_MS));
  if (!claimed) return;
  if (claimed.uninstalled || claimed.payload === null) {
    const error = claimed.uninstalled ? "the app was uninstalled from the workspace" : "nothing to send";
    await finishDelivery(deps.db, claimed, "failed", { statusCode: null, error }, now);
    deps.metrics.webhookDeliveries.inc({ outcome: "failed" });
    return;
  }
  const secret = decryptSecret(deps.keys.tokenEncryption, claimed.secretEnc);
  const timestamp = Math.floor(now.getTime() / 1000);
  const outcome = await attempt(
    {
      url: claimed.url,
      messageId: claimed.messageId,
      timestamp,
      signature: sign(secret, claimed.messageId, timestamp, claimed.payload),
      body: claimed.payload,
    },
    { outbound: deps.outbound, policy: addressPolicy(deps) },
  );
  await recordOutcome(deps, claimed, outcome);
}

/** Slack mrkdwn: &, < and > are control characters. */
const mrkdwn = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The address without its query (which may carry a token of the receiver's). */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(invalid address)";
  }
}

const WHY: Record<DisableReason, string> = {
  gone: "it answered 410 Gone, which asks for no more deliveries",
  failing: "every delivery to it failed for 5 days",
};

/** Tells every admin of the workspace by DM, once per admin per disabling (the postOnce key). */
async function noticeDisabled(deps: JobDeps, p: { teamId: string; endpointId: number; disabledAt: string }) {
  const endpoint = await findEndpoint(deps.db, p.teamId, p.endpointId);
  // Deleted meanwhile (or not this disabling): nothing to say.
  if (!endpoint?.disabledAt || endpoint.disabledAt.toISOString() !== p.disabledAt) return;
  const reason = (endpoint.disabledReason ?? "failing") as DisableReason;
  const text =
    `:warning: Upbeat disabled a webhook endpoint: \`${mrkdwn(shownUrl(endpoint.url))}\`, because ${WHY[reason]}. ` +
    `It receives nothing more. Fix the receiver, then add it again under Webhooks in the dashboard ` +
    `(<${deps.config.appUrl}/dashboard/webhooks|open>).`;
  const admins = await selectAdmins(deps.db, p.teamId);
  let client: Awaited<ReturnType<Deps["chat"]["forTeam"]>>;
  try {
    client = await deps.chat.forTeam(p.teamId, "post");
  } catch (err) {
    if (err instanceof InstallationGoneError) return;
    throw err;
  }
  let retry: unknown;
  for (const userId of admins) {
    try {
      const channel = await openDm(deps, client, p.teamId, userId);
      await postOnce(deps, client, {
        key: postKey("webhook", p.endpointId, "disabled", Date.parse(p.disabledAt), userId),
        teamId: p.teamId,
        channel,
        text,
      });
    } catch (err) {
      // Slack asked to wait longer than a worker sleeps: the job runs again then (the admins told keep their claims).
      if (err instanceof RetryLaterError) throw err;
      // Slack refused this admin (gone, deactivated, a bot): the others still hear. Anything else is retried,
      // and the admins already told are not told twice.
      const code = slackErrorCode(err);
      if (code === undefined || code === "ratelimited") retry = err;
      else deps.log.warn({ team_id: p.teamId, job: "webhook.disabled", code }, "an admin could not be told");
    }
  }
  if (retry) throw retry;
}

/**
 * Sends the deliveries whose attempt is overdue by `graceMs` and was not claimed: a retry whose job ran early by
 * this instance's clock or was lost, an attempt whose worker died (its lease ran out). Claims make a second job
 * for the same attempt harmless. Tests pass 0 to send what is due by the injected clock.
 */
export async function sweepDeliveries(deps: JobDeps, graceMs = SWEEP_GRACE_MS): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db.transaction(async (tx) => {
    const taken = await takeOverdue(tx, new Date(now.getTime() - graceMs), now, SWEEP_BATCH);
    // A delivery still waiting behind a backlog in the queue is overdue too: one rescue job per attempt per hour at
    // most, so sweeps during a backlog do not pile up jobs.
    for (const d of taken) {
      await deps.queue.enqueue(
        "webhook.deliver",
        { teamId: d.teamId, deliveryId: d.id },
        { tx, singletonKey: `webhook:${d.id}:${d.attempts}`, singletonSeconds: SWEEP_SINGLETON_SECONDS },
      );
    }
    return taken;
  });
  return due.length;
}

/** Retention: finished deliveries 30 days, and each endpoint's newest 100 (its log); pending ones until they finish. */
export async function pruneWebhookDeliveries(deps: Pick<Deps, "db" | "clock">): Promise<number> {
  return pruneDeliveries(deps.db, new Date(deps.clock.now().getTime() - DELIVERY_RETENTION_MS), DELIVERIES_SHOWN);
}

export function webhookJobs(deps: Deps): void {
  deps.queue.register("webhook.deliver", (p) => deliver(deps, p.teamId, p.deliveryId), { concurrency: 8 });
  deps.queue.register("webhook.disabled", (p) => noticeDisabled(deps, p), { concurrency: 2 });
}

/** Sweeps every 30 s and prunes every hour until stopped; a failed pass is logged and the next one tries again. */
export function startWebhookSweeper(deps: Deps): StopTicker {
  let current: Promise<void> | undefined;
  let prunedAt = 0;
  const pass = (): Promise<void> => {
    current ??= (async () => {
      try {
        await sweepDeliveries(deps);
        if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
          prunedAt = Date.now();
          await pruneWebhookDeliveries(deps);
        }
      } catch (err) {
        deps.log.error({ err: err instanceof Error ? err.message : String(err) }, "webhook sweep failed");
      } finally {
        current = undefined;
      }
    })();
    return current;
  };
  const timer = setInterval(() => void pass(), SWEEP_MS);
  timer.unref();
  // Stopping waits for a sweep in progress, so shutdown closes the database only after it.
  return () => {
    clearInterval(timer);
    return current ?? Promise.resolve();
  };
}
