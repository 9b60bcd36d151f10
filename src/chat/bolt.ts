import { App } from "@slack/bolt";
import type { Deps } from "../deps.ts";
import { decryptSecret } from "../lib/crypto.ts";
import { findInstallation } from "./installations.repo.ts";
import type { FastifyReceiver } from "./receiver.ts";
import { slackLevelFor, slackLogger } from "./slack-logger.ts";
import { webClientOptions } from "./web-client.ts";

export type ListenerGroup = (bolt: App, deps: Deps) => void;

/** Bolt with our receiver; `authorize` reads the stored installation of the team. */
export function createBolt(deps: Deps, receiver: FastifyReceiver, groups: ListenerGroup[]): App {
  // Bolt hands its logger to every client it makes for listeners; its level follows pino's.
  const logger = slackLogger(deps.log, "bolt");
  const bolt = new App({
    receiver,
    // Bolt's default conversation store is unused here and costs an exception per event.
    convoStore: false,
    logger,
    logLevel: slackLevelFor(deps.log.level),
    // Calls made inside listeners (views.open must use the trigger within 3 s) are not retried.
    clientOptions: webClientOptions(deps.config, "post", logger, deps.metrics),
    authorize: async ({ teamId }) => {
      if (!teamId) throw new Error("event without a team");
      const inst = await findInstallation(deps.db, teamId);
      if (!inst || inst.uninstalledAt) throw new Error(`team ${teamId} is not installed`);
      return {
        botToken: decryptSecret(deps.keys.tokenEncryption, inst.botTokenEnc),
        botUserId: inst.botUserId,
        teamId,
      };
    },
  });
  bolt.error(async (err) => {
    deps.log.warn({ err: err.message, code: (err as { code?: string }).code }, "chat listener error");
  });
  for (const register of groups) register(bolt, deps);
  return bolt;
}
