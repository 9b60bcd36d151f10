import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { decryptSecret } from "../lib/crypto.ts";
import type { Metrics } from "../lib/metrics.ts";
import { findActiveInstallation } from "./installations.repo.ts";
import { makeWebClient, type TokenRefusedHook } from "./web-client.ts";

export class InstallationGoneError extends Error {
  constructor(readonly teamId: string) {
    super(`installation ${teamId} is not active`);
  }
}

/** What Bolt's `authorize` needs for a workspace's events. */
export interface TeamAuth {
  botToken: string;
  botUserId: string;
}

/**
 * How long a workspace's installation, read for an incoming event, is trusted before it is read again. Slack events
 * arrive by the thousand a second in a busy workspace; each would otherwise cost a query and a decryption. This
 * instance forgets a workspace at once when it installs, uninstalls or is deleted here (`forget`); another instance
 * sees the change within this time.
 */
export const AUTHORIZE_TTL_MS = 5_000;
/** Workspaces whose installation is held at once; past it the least recently read is dropped. */
const AUTHORIZE_CACHE_MAX = 10_000;

/**
 * What happens when Slack refuses a workspace's token (TOKEN_REFUSED): the install feature marks the installation
 * as needing reinstall (app.ts wires it). Errors it throws are logged, never handed to the call that met the refusal.
 */
export type OnTokenRefused = (teamId: string, code: string) => Promise<void>;

/** Web API clients per workspace, built from the stored (encrypted) bot token. */
export class ChatClients {
  readonly #clients = new Map<string, { read: WebClient; post: WebClient }>();
  readonly #auth = new Map<string, { value: Promise<TeamAuth | undefined>; until: number }>();
  /** The workspace of each token this instance decrypted: Bolt's listener clients carry only the token. */
  readonly #teamOfToken = new Map<string, string>();
  #onTokenRefused: OnTokenRefused | undefined;

  constructor(
    private readonly config: Config,
    private readonly db: Db,
    private readonly encryptionKey: Buffer,
    private readonly log: Logger,
    private readonly metrics?: Metrics,
  ) {}

  /** Set once at start (app.ts): who is told when Slack refuses a workspace's token. */
  onTokenRefused(handler: OnTokenRefused): void {
    this.#onTokenRefused = handler;
  }

  /**
   * For every Web API client's fetch (ours and Bolt's): Slack refused `token`. The workspace it belongs to is marked
   * before the caller sees the error, so a job that then gives up finds its workspace marked.
   */
  readonly tokenRefused: TokenRefusedHook = async (token, code) => {
    const teamId = this.#teamOfToken.get(token);
    if (!teamId || !this.#onTokenRefused) return;
    try {
      // A call still carrying the token from before a reinstall says nothing about the new one.
      const inst = await findActiveInstallation(this.db, teamId);
      if (!inst || decryptSecret(this.encryptionKey, inst.botTokenEnc) !== token) return;
      if (code === "invalid_auth" && !(await this.#stillRefused(token))) {
        this.log.warn({ team_id: teamId, code }, "Slack refused the token once but accepts it again: not marked");
        return;
      }
      await this.#onTokenRefused(teamId, code);
    } catch (err) {
      this.log.warn({ team_id: teamId, code, err: String(err) }, "marking a refused token failed");
    }
  };

  /**
   * Marking ends every session, MCP key and feed link of the workspace, so an `invalid_auth` (which a Slack-side
   * hiccup can answer too, unlike token_revoked, account_inactive or token_expired) is confirmed with one auth.test
   * (a client without this hook, so it cannot loop). Only another refusal confirms it; an outage says nothing.
   */
  async #stillRefused(token: string): Promise<boolean> {
    try {
      await makeWebClient(this.config, this.log, token, "post", this.metrics).auth.test();
      return false;
    } catch (err) {
      const code = (err as { data?: { error?: unknown } }).data?.error;
      return (
        code === "invalid_auth" || code === "account_inactive" || code === "token_revoked" || code === "token_expired"
      );
    }
  }

  #remember(token: string, teamId: string): void {
    this.#teamOfToken.delete(token);
    this.#teamOfToken.set(token, teamId);
    if (this.#teamOfToken.size > AUTHORIZE_CACHE_MAX) this.#teamOfToken.delete(this.#teamOfToken.keys().next().value!);
  }

  /** A client without a token, for `oauth.v2.access`. */
  anonymous(): WebClient {
    return makeWebClient(this.config, this.log, undefined, "read", this.metrics);
  }

  /**
   * The bot token and user of an installed workspace, for Bolt's `authorize`; undefined when it is not installed.
   * Held for AUTHORIZE_TTL_MS (see there); two events at once for a workspace not held share one read.
   */
  authorize(teamId: string): Promise<TeamAuth | undefined> {
    const now = performance.now();
    const held = this.#auth.get(teamId);
    if (held && held.until > now) {
      // Most recently used last, so the oldest is the first key when the map is full.
      this.#auth.delete(teamId);
      this.#auth.set(teamId, held);
      return held.value;
    }
    const value = findActiveInstallation(this.db, teamId).then((inst) => {
      if (!inst) return undefined;
      const botToken = decryptSecret(this.encryptionKey, inst.botTokenEnc);
      this.#remember(botToken, teamId);
      return { botToken, botUserId: inst.botUserId };
    });
    const entry = { value, until: now + AUTHORIZE_TTL_MS };
    this.#auth.delete(teamId);
    this.#auth.set(teamId, entry);
    if (this.#auth.size > AUTHORIZE_CACHE_MAX) this.#auth.delete(this.#auth.keys().next().value as string);
    // A failed read is not kept. (`forget` drops a read still under way too: it may have seen the old row.)
    value.catch(() => {
      if (this.#auth.get(teamId) === entry) this.#auth.delete(teamId);
    });
    return value;
  }

  /** Call after a workspace's installation changed and the change committed: its next event reads it again. */
  forget(teamId: string): void {
    this.#auth.delete(teamId);
  }

  /** Throws InstallationGoneError when the workspace uninstalled the app: no more calls for it. */
  async forTeam(teamId: string, purpose: "read" | "post" = "read"): Promise<WebClient> {
    const inst = await findActiveInstallation(this.db, teamId);
    if (!inst) throw new InstallationGoneError(teamId);
    const token = decryptSecret(this.encryptionKey, inst.botTokenEnc);
    this.#remember(token, teamId);
    let pair = this.#clients.get(token);
    if (!pair) {
      pair = {
        read: makeWebClient(this.config, this.log, token, "read", this.metrics, this.tokenRefused),
        post: makeWebClient(this.config, this.log, token, "post", this.metrics, this.tokenRefused),
      };
      this.#clients.set(token, pair);
    }
    return pair[purpose];
  }
}
