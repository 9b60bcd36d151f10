import type { App as BoltApp } from "@slack/bolt";
import type { FastifyInstance } from "fastify";
import { createBolt } from "./chat/bolt.ts";
import { failedEventRoutes } from "./chat/intake/failed-events.routes.ts";
import { Intake } from "./chat/intake/intake.ts";
import { startIntakeSweeper } from "./chat/intake/sweeper.ts";
import { chatRoutes, FastifyReceiver } from "./chat/receiver.ts";
import { chatJobs, publishView } from "./chat/slack-calls.ts";
import { type SocketOptions, SocketTransport } from "./chat/socket/socket-transport.ts";
import type { Deps } from "./deps.ts";
import { aiSummaryJobs } from "./features/ai-summary/index.ts";
import { startSnapshotScheduler } from "./features/backup/index.ts";
import { blockerRoutes } from "./features/blockers/index.ts";
import { celebrationJobs, celebrationRoutes, startCelebrationsScheduler } from "./features/celebrations/index.ts";
import { channelRoutes } from "./features/channels/index.ts";
import { dataRemovalRoutes } from "./features/data-removal/index.ts";
import { emailJobs, emailRoutes, startDigestScheduler } from "./features/email/index.ts";
import { feedRoutes } from "./features/feed/index.ts";
import { exportRoutes, insightRoutes } from "./features/insights/index.ts";
import {
  installConfiguredWorkspace,
  installListeners,
  installRoutes,
  startTokenCheckScheduler,
  tokenCheckJobs,
  watchRefusedTokens,
} from "./features/install/index.ts";
import { kudosJobs, kudosListeners, kudosRoutes } from "./features/kudos/index.ts";
import { maintenanceJobs, startMaintenanceScheduler } from "./features/maintenance/index.ts";
import { manifestRoutes } from "./features/manifest/index.ts";
import { mcpKeyRoutes } from "./features/mcp-keys/index.ts";
import { memberJobs, memberListeners, memberRoutes, startMemberSyncScheduler } from "./features/members/index.ts";
import { metricsRoutes } from "./features/metrics/index.ts";
import { oauthGrantRoutes, oauthRoutes } from "./features/oauth/index.ts";
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
import type { StopTicker } from "./jobs/ticker.ts";
import { mcpRoutes } from "./mcp/mcp.routes.ts";

export interface Upbeat {
  readonly deps: Deps;
  readonly server: FastifyInstance;
  readonly bolt: BoltApp;
  /** Where every Slack delivery is recorded and processed (tests run its sweep directly). */
  readonly intake: Intake;
  /** Socket Mode, when CHAT_APP_TOKEN is set (else deliveries come over HTTP only). */
  readonly socket: SocketTransport | undefined;
  /** Starts background work (queue workers, scheduler). Listening is the caller's choice. */
  start(): Promise<void>;
  /** Waits until the chat deliveries acknowledged so far have been processed (tests read their effects after it). */
  settle(): Promise<void>;
  /**
   * Graceful shutdown within SHUTDOWN_BUDGET_MS: refuses new connections, lets in-flight requests and running jobs and
   * ticks finish, stops the workers, closes the database.
   */
  stop(): Promise<void>;
}

/** How long stop() may take; src/main.ts exits with an error if it has not finished a second after. */
export const SHUTDOWN_BUDGET_MS = 9_000;
/** In-flight requests get at most this long (then their connections are cut), so the job workers keep some time. */
const HTTP_DRAIN_MS = 6_000;
/** While draining, connections that have become idle are closed this often. */
const IDLE_CHECK_MS = 50;
/** Time kept for closing the database after the workers have stopped. */
const DB_CLOSE_MS = 500;

/** Resolves when `work` does, or after `ms`, whichever is first. */
function within(work: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([work, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

/** Wires every feature: routes, Slack listeners and jobs. */
export async function buildApp(deps: Deps, opts: { socket?: SocketOptions } = {}): Promise<Upbeat> {
  const receiver = new FastifyReceiver();
  const intake = new Intake(deps, receiver.dispatch);
  const socket = deps.config.chatAppToken ? new SocketTransport(deps, intake, opts.socket) : undefined;
  const bolt = createBolt(deps, receiver, [
    installListeners,
    memberListeners,
    standupListeners,
    ruleListeners,
    kudosListeners,
    profileListeners,
    timeOffListeners(async (d, client, teamId, userId) => {
      await publishView(d, client, teamId, { user_id: userId, view: await buildHomeView(d, teamId, userId) });
    }),
  ]);
  watchRefusedTokens(deps);
  chatJobs(deps);
  tokenCheckJobs(deps);
  memberJobs(deps);
  standupJobs(deps);
  ruleJobs(deps);
  ruleSubscribers(deps);
  kudosJobs(deps);
  webhookJobs(deps);
  webhookEvents(deps);
  emailJobs(deps);
  celebrationJobs(deps);
  maintenanceJobs(deps);
  aiSummaryJobs(deps);
  standupTimeOffSubscriber(deps);
  const server = await buildServer(deps, sessionLookup(deps), [
    systemRoutes(socket),
    metricsRoutes,
    chatRoutes(intake),
    failedEventRoutes,
    installRoutes,
    manifestRoutes,
    sessionRoutes,
    memberRoutes,
    channelRoutes,
    scheduleRoutes,
    standupRoutes,
    templateRoutes,
    feedRoutes,
    insightRoutes,
    exportRoutes,
    blockerRoutes,
    kudosRoutes,
    profileRoutes,
    mcpKeyRoutes,
    oauthRoutes,
    oauthGrantRoutes,
    ruleRoutes,
    webhookRoutes,
    emailRoutes,
    celebrationRoutes,
    timeOffRoutes,
    dataRemovalRoutes,
    mcpRoutes,
    webRoutes,
  ]);
  let stopping: Promise<void> | undefined;
  let stopScheduler: StopTicker | undefined;
  let stopSweeper: StopTicker | undefined;
  let stopDigests: StopTicker | undefined;
  let stopCelebrations: StopTicker | undefined;
  let stopMemberSync: StopTicker | undefined;
  let stopMaintenance: StopTicker | undefined;
  let stopTokenCheck: StopTicker | undefined;
  let stopIntakeSweeper: StopTicker | undefined;
  let stopSnapshots: StopTicker | undefined;
  return {
    deps,
    server,
    bolt,
    intake,
    socket,
    async start() {
      await deps.queue.start();
      // CHAT_BOT_TOKEN: the one workspace is installed (or found unchanged) before anything is served for it.
      await installConfiguredWorkspace(deps);
      socket?.start();
      if (deps.queue.settings.workers) {
        stopScheduler = startScheduler(deps);
        stopSweeper = startWebhookSweeper(deps);
        stopDigests = startDigestScheduler(deps);
        stopCelebrations = startCelebrationsScheduler(deps);
        stopMemberSync = startMemberSyncScheduler(deps);
        stopMaintenance = startMaintenanceScheduler(deps);
        stopTokenCheck = startTokenCheckScheduler(deps);
        stopIntakeSweeper = startIntakeSweeper(deps, intake);
        stopSnapshots = startSnapshotScheduler(deps);
      }
    },
    settle: () => intake.settle(),
    stop() {
      stopping ??= (async () => {
        const deadline = Date.now() + SHUTDOWN_BUDGET_MS;
        const left = () => Math.max(0, deadline - Date.now());
        // No new jobs are fetched from here on; running ones finish while the requests drain.
        const fetching = deps.queue.stopFetching();
        // No further ticks; a tick in progress finishes while the requests drain.
        const ticks = Promise.all(
          [
            stopScheduler,
            stopSweeper,
            stopDigests,
            stopCelebrations,
            stopMemberSync,
            stopMaintenance,
            stopTokenCheck,
            stopIntakeSweeper,
            stopSnapshots,
          ].map((stop) => stop?.()),
        );
        // Fastify stops listening (new connections are refused), closes idle keep-alive connections, answers 503 to
        // requests arriving on busy ones, and resolves once every in-flight request has been answered.
        const closing = server.close();
        // The socket takes no new envelopes; those being recorded are acknowledged, then it closes.
        const socketClosing = socket?.stop(Math.min(HTTP_DRAIN_MS, left()));
        // Node closes the connections idle at that moment only: a keep-alive connection whose request finishes
        // later would hold the close open until its keep-alive timeout, so idle ones are closed as they appear.
        const closeIdle = setInterval(() => server.server.closeIdleConnections(), IDLE_CHECK_MS);
        try {
          await within(Promise.all([closing, ticks, fetching, socketClosing]), Math.min(HTTP_DRAIN_MS, left()));
        } finally {
          clearInterval(closeIdle);
        }
        // A request still running now (a client that never finishes its upload, a held-open stream) is cut off.
        server.server.closeAllConnections();
        // Deliveries being processed finish here; one that does not is taken again by a sweep once its lease ends.
        await intake.settle(left());
        // The workers take no new jobs; running ones get the rest of the budget, then pg-boss fails them for a retry.
        await deps.queue
          .stop(left() - DB_CLOSE_MS)
          .catch((err: unknown) => deps.log.warn({ err: String(err) }, "queue stop failed"));
        await deps.database.close();
      })();
      return stopping;
    },
  };
}
