import type { App as BoltApp } from "@slack/bolt";
import type { FastifyInstance } from "fastify";
import { createBolt } from "./chat/bolt.ts";
import { chatRoutes, FastifyReceiver } from "./chat/receiver.ts";
import type { Deps } from "./deps.ts";
import { celebrationJobs, celebrationRoutes, startCelebrationsScheduler } from "./features/celebrations/index.ts";
import { channelRoutes } from "./features/channels/index.ts";
import { dataRemovalRoutes } from "./features/data-removal/index.ts";
import { emailJobs, emailRoutes, startDigestScheduler } from "./features/email/index.ts";
import { feedRoutes } from "./features/feed/index.ts";
import { exportRoutes, insightRoutes } from "./features/insights/index.ts";
import { installListeners, installRoutes } from "./features/install/index.ts";
import { kudosJobs, kudosListeners, kudosRoutes } from "./features/kudos/index.ts";
import { mcpKeyRoutes } from "./features/mcp-keys/index.ts";
import { memberJobs, memberListeners, memberRoutes, startMemberSyncScheduler } from "./features/members/index.ts";
import { profileListeners, profileRoutes } from "./features/profiles/index.ts";
import { ruleJobs, ruleListeners, ruleRoutes, ruleSubscribers } from "./features/rules/index.ts";
import { scheduleRoutes } from "./features/schedules/index.ts";
import { sessionLookup, sessionRoutes } from "./features/session/index.ts";
import {
  buildHomeView,
  standupJobs,
  standupListeners,
  standupRoutes,
  standupTimeOffSubscriber,
  startScheduler,
} from "./features/standups/index.ts";
import { systemRoutes } from "./features/system/index.ts";
import { templateRoutes } from "./features/templates/index.ts";
import { timeOffListeners, timeOffRoutes } from "./features/time-off/index.ts";
import { webRoutes } from "./features/web/index.ts";
import { startWebhookSweeper, webhookEvents, webhookJobs, webhookRoutes } from "./features/webhooks/index.ts";
import { buildServer } from "./http/server.ts";
import { mcpRoutes } from "./mcp/mcp.routes.ts";

export interface Upbeat {
  readonly deps: Deps;
  readonly server: FastifyInstance;
  readonly bolt: BoltApp;
  /** Starts background work (queue workers, scheduler). Listening is the caller's choice. */
  start(): Promise<void>;
  /** Waits until the chat events acknowledged so far have been handled (tests read their effects after it). */
  settle(): Promise<void>;
  /** Stops taking requests, lets in-flight ones finish (up to 10 s), stops the workers, closes the database. */
  stop(): Promise<void>;
}

/** Wires every feature: routes, Slack listeners and jobs. */
export async function buildApp(deps: Deps): Promise<Upbeat> {
  const receiver = new FastifyReceiver();
  const bolt = createBolt(deps, receiver, [
    installListeners,
    memberListeners,
    standupListeners,
    ruleListeners,
    kudosListeners,
    profileListeners,
    timeOffListeners(async (d, client, teamId, userId) => {
      await client.views.publish({ user_id: userId, view: await buildHomeView(d, teamId, userId) });
    }),
  ]);
  memberJobs(deps);
  standupJobs(deps);
  ruleJobs(deps);
  ruleSubscribers(deps);
  kudosJobs(deps);
  webhookJobs(deps);
  webhookEvents(deps);
  emailJobs(deps);
  celebrationJobs(deps);
  standupTimeOffSubscriber(deps);
  const server = await buildServer(deps, sessionLookup(deps), [
    systemRoutes,
    chatRoutes(receiver),
    installRoutes,
    sessionRoutes,
    memberRoutes,
    channelRoutes,
    scheduleRoutes,
    standupRoutes,
    templateRoutes,
    feedRoutes,
    insightRoutes,
    exportRoutes,
    kudosRoutes,
    profileRoutes,
    mcpKeyRoutes,
    ruleRoutes,
    webhookRoutes,
    emailRoutes,
    celebrationRoutes,
    timeOffRoutes,
    dataRemovalRoutes,
    mcpRoutes,
    webRoutes,
  ]);
  let stopped = false;
  let stopScheduler: (() => void) | undefined;
  let stopSweeper: (() => void) | undefined;
  let stopDigests: (() => void) | undefined;
  let stopCelebrations: (() => void) | undefined;
  let stopMemberSync: (() => void) | undefined;
  return {
    deps,
    server,
    bolt,
    async start() {
      await deps.queue.start();
      if (deps.queue.settings.workers) {
        stopScheduler = startScheduler(deps);
        stopSweeper = startWebhookSweeper(deps);
        stopDigests = startDigestScheduler(deps);
        stopCelebrations = startCelebrationsScheduler(deps);
        stopMemberSync = startMemberSyncScheduler(deps);
      }
    },
    settle: () => receiver.settle(),
    async stop() {
      if (stopped) return;
      stopped = true;
      stopScheduler?.();
      stopSweeper?.();
      stopDigests?.();
      stopCelebrations?.();
      stopMemberSync?.();
      const closing = server.close();
      const grace = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
      await Promise.race([closing, grace]);
      await receiver.settle();
      await deps.queue.stop().catch((err: unknown) => deps.log.warn({ err: String(err) }, "queue stop failed"));
      await deps.database.close();
    },
  };
}
