import { App } from "@slack/bolt";
import type { Deps } from "../deps.ts";
import { directEvents } from "./events-direct.ts";
import { NotInstalledError } from "./intake/failures.ts";
import type { FastifyReceiver } from "./receiver.ts";
import { type ChatListeners, ChatRouter } from "./router.ts";
import { slackLevelFor, slackLogger } from "./slack-logger.ts";
import { webClientOptions } from "./web-client.ts";

export type ListenerGroup = (bolt: ChatListeners, deps: Deps) => void;

/** Bolt with our receiver; `authorize` reads the stored installation of the team (held briefly: ChatClients.authorize). */
export function createBolt(deps: Deps, receiver: FastifyReceiver, groups: ListenerGroup[]): App {
  // Bolt hands its logger to every client it makes for listeners; its level follows pino's.
  const logger = slackLogger(deps.log, "bolt");
  const clientOptions = webClientOptions(deps.config, "post", logger, deps.metrics, deps.chat.tokenRefused);
  const bolt = new App({
    receiver,
    // Bolt's default conversation store is unused here and costs an exception per event.
    convoStore: false,
    logger,
    logLevel: slackLevelFor(deps.log.level),
    // Calls made inside listeners (views.open must use the trigger within 3 s) are not retried.
    // A refused token met in a listener marks its workspace as a job's would (ChatClients.tokenRefused).
    clientOptions,
    authorize: async ({ teamId }) => {
      if (!teamId) throw new Error("event without a team");
      const auth = await deps.chat.authorize(teamId);
      if (!auth) throw new NotInstalledError(teamId);
      return { ...auth, teamId };
    },
  });
  // Rethrown, so that processEvent rejects and the intake keeps the delivery for another attempt (Bolt's own
  // handler would swallow it); the intake logs it.
  bolt.error(async (err) => {
    throw err;
  });
  const router = new ChatRouter(bolt);
  for (const register of groups) register(router.listeners, deps);
  router.mount();
  // Events skip Bolt's per-event work (events-direct.ts); the same listeners, middleware and client options.
  receiver.setDispatch(directEvents(deps, router, bolt, clientOptions, logger));
  return bolt;
}
