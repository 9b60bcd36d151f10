import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { decryptSecret } from "../lib/crypto.ts";
import type { Metrics } from "../lib/metrics.ts";
import { findActiveInstallation } from "./installations.repo.ts";
import { makeWebClient } from "./web-client.ts";

export class InstallationGoneError extends Error {
  constructor(readonly teamId: string) {
    super(`installation ${teamId} is not active`);
  }
}

/** Web API clients per workspace, built from the stored (encrypted) bot token. */
export class ChatClients {
  readonly #clients = new Map<string, { read: WebClient; post: WebClient }>();

  constructor(
    private readonly config: Config,
    private readonly db: Db,
    private readonly encryptionKey: Buffer,
    private readonly log: Logger,
    private readonly metrics?: Metrics,
  ) {}

  /** A client without a token, for `oauth.v2.access`. */
  anonymous(): WebClient {
    return makeWebClient(this.config, this.log, undefined, "read", this.metrics);
  }

  /** Throws InstallationGoneError when the workspace uninstalled the app: no more calls for it. */
  async forTeam(teamId: string, purpose: "read" | "post" = "read"): Promise<WebClient> {
    const inst = await findActiveInstallation(this.db, teamId);
    if (!inst) throw new InstallationGoneError(teamId);
    const token = decryptSecret(this.encryptionKey, inst.botTokenEnc);
    let pair = this.#clients.get(token);
    if (!pair) {
      pair = {
        read: makeWebClient(this.config, this.log, token, "read", this.metrics),
        post: makeWebClient(this.config, this.log, token, "post", this.metrics),
      };
      this.#clients.set(token, pair);
    }
    return pair[purpose];
  }
}
