import { App, type Logger as BoltLogger, LogLevel } from "@slack/bolt";
import type { Deps } from "../deps.ts";
import { decryptSecret } from "../lib/crypto.ts";
import { findInstallation } from "./installations.repo.ts";
import type { FastifyReceiver } from "./receiver.ts";
import { webClientOptions } from "./web-client.ts";

function boltLogger(deps: Deps): BoltLogger {
  const log = deps.log.child({ component: "bolt" });
  let level = LogLevel.WARN;
  return {
    debug: (...m) => log.debug(m.map(String).join(" ")),
    info: (...m) => log.info(m.map(String).join(" ")),
    warn: (...m) => log.warn(m.map(String).join(" ")),
    error: (...m) => log.error(m.map(String).join(" ")),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

export type ListenerGroup = (bolt: App, deps: Deps) => void;

/** Bolt with our receiver; `authorize` reads the stored installation of the team. */
export function createBolt(deps: Deps, receiver: FastifyReceiver, groups: ListenerGroup[]): App {
  const bolt = new App({
    receiver,
    // Bolt's default conversation store is unused here and costs an exception per event.
    convoStore: false,
    logger: boltLogger(deps),
    logLevel: LogLevel.WARN,
    // Calls made inside listeners (views.open must use the trigger within 3 s) are not retried.
    clientOptions: webClientOptions(deps.config, "post"),
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
