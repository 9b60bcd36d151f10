import type { WebClient } from "@slack/web-api";
import { findActiveInstallation, findInstallation, installedTeamIds } from "../../chat/installations.repo.ts";
import { slackErrorCode } from "../../chat/slack-errors.ts";
import { makeWebClient } from "../../chat/web-client.ts";
import { type Config, ConfigError } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { decryptSecret } from "../../lib/crypto.ts";
import { BOT_SCOPES, type Grant, storeInstallation } from "./install.service.ts";

/**
 * One workspace without OAuth: with CHAT_BOT_TOKEN (the `xoxb-` token of "Install to Workspace") the instance installs
 * that workspace itself at every start, storing it exactly as an OAuth install does (storeInstallation).
 */
export function singleWorkspace(config: Pick<Config, "chatBotToken">): boolean {
  return config.chatBotToken !== undefined;
}

/** Slack's answers that say the token itself is no good: the operator must give another one. */
const REFUSED = new Set(["invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired"]);

/**
 * Slack unreachable (network, 5xx, 429) at a first start with a token not stored yet: tried again after each of
 * these waits (about two minutes in all), then the start fails naming the variable, so an orchestrator's restart
 * policy takes over with a clear line in the log each time instead of a process that runs and serves nobody.
 */
export const START_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000] as const;

export interface ConfiguredWorkspace {
  teamId: string;
  teamName: string;
  /** What this start did: stored a first install or a new token, or found the same token already stored. */
  outcome: "installed" | "token_replaced" | "reinstalled" | "unchanged";
}

/** The workspace each app instance installed at start, for the pages that name it (by the instance's chat clients). */
const installedHere = new WeakMap<object, { teamId: string }>();

/** The team this instance serves in one-workspace mode, once its start installed it. */
export function configuredTeamId(deps: Pick<Deps, "chat">): string | undefined {
  return installedHere.get(deps.chat)?.teamId;
}

/** `ok: false` answers that are Slack's own trouble, not the token's: tried again like an HTTP 5xx. */
const SLACK_TROUBLE = new Set(["fatal_error", "internal_error", "service_unavailable", "request_timeout"]);

class Unreachable extends Error {}

interface AuthTest {
  team_id?: string;
  team?: string;
  user_id?: string;
  bot_id?: string;
  response_metadata?: { scopes?: string[] };
}

/** Slack's answer to auth.test and team.info for the token, as a grant; throws ConfigError or Unreachable. */
async function grantOf(client: WebClient, token: string): Promise<Grant> {
  const test = (await call(() => client.auth.test())) as AuthTest;
  if (!test.team_id || !test.user_id || !test.bot_id) {
    throw new ConfigError(["CHAT_BOT_TOKEN is not a bot token of a workspace (auth.test named no team or bot user)"]);
  }
  let teamName = test.team || test.team_id;
  try {
    const info = (await call(() => client.team.info())) as { team?: { name?: string } };
    teamName = info.team?.name || teamName;
  } catch (err) {
    // An app made before team:read was in the manifest: auth.test's name is the same name.
    if (!(err instanceof ConfigError)) throw err;
  }
  // Slack lists the token's scopes in a header (x-oauth-scopes) of every answer; without it, the manifest's.
  const granted = (test.response_metadata?.scopes ?? []).filter(Boolean);
  return {
    teamId: test.team_id,
    teamName,
    botUserId: test.user_id,
    botToken: token,
    scopes: (granted.length > 0 ? granted : BOT_SCOPES).join(","),
  };
}

/** One Web API call: Slack's refusal of the token a ConfigError naming the variable, an outage Unreachable. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const code = slackErrorCode(err);
    if (code !== undefined && REFUSED.has(code)) {
      throw new ConfigError([
        `CHAT_BOT_TOKEN was refused by Slack (${code}): the app was uninstalled, the token revoked or mistyped. ` +
          "Install the app to the workspace again in Slack (OAuth & Permissions → Install to Workspace) and set the " +
          "Bot User OAuth Token it shows",
      ]);
    }
    if (code !== undefined && !SLACK_TROUBLE.has(code))
      throw new ConfigError([`CHAT_BOT_TOKEN: Slack answered ${code}`]);
    // Network errors, HTTP 5xx and rate limits: worth another try.
    throw new Unreachable(code ? `Slack answered ${code}` : outage(err));
  }
}

/** Which outage, in words for the log and the error (the Web API client's errors carry no token). */
function outage(err: unknown): string {
  const e = err as { code?: string; statusCode?: number; original?: { message?: string } };
  if (e?.code === "slack_webapi_http_error") return `HTTP ${e.statusCode}`;
  if (e?.code === "slack_webapi_rate_limited_error") return "rate limited";
  if (e?.code === "slack_webapi_request_error") return e.original?.message ?? "request failed";
  return err instanceof Error ? err.message : String(err);
}

/** The active installation that holds exactly this token, if any (one workspace: one or very few rows). */
async function storedWith(deps: Deps, token: string) {
  for (const teamId of await installedTeamIds(deps.db)) {
    const inst = await findActiveInstallation(deps.db, teamId);
    if (inst && decryptSecret(deps.keys.tokenEncryption, inst.botTokenEnc) === token) return inst;
  }
  return undefined;
}

/**
 * Installs the workspace of CHAT_BOT_TOKEN at start (a no-op without it). The same token again writes nothing (no
 * second welcome or sync, no new rows); a new token for the team replaces the stored one as a reinstall does
 * (clearing a refused-token mark); a token Slack refuses is a ConfigError naming CHAT_BOT_TOKEN.
 *
 * Slack unreachable: when this token is already stored and installed the instance starts on what it has (it worked
 * before; the daily token check and every call still notice a refusal later), with a warning. Otherwise nothing could
 * be served, so it retries (START_RETRY_DELAYS_MS) and then fails with a ConfigError that says Slack did not answer.
 */
export async function installConfiguredWorkspace(
  deps: Deps,
  opts: { retryDelaysMs?: readonly number[] } = {},
): Promise<ConfiguredWorkspace | undefined> {
  const token = deps.config.chatBotToken;
  if (!token) return undefined;
  // No retries inside the client: this loop decides, and a refusal must not wait.
  const client = makeWebClient(deps.config, deps.log, token, "post", deps.metrics);
  const stored = await storedWith(deps, token);
  const delays = opts.retryDelaysMs ?? START_RETRY_DELAYS_MS;
  let grant: Grant | undefined;
  for (let attempt = 0; !grant; attempt++) {
    try {
      grant = await grantOf(client, token);
    } catch (err) {
      if (!(err instanceof Unreachable)) throw err;
      if (stored) {
        deps.log.warn(
          { team_id: stored.teamId, err: err.message },
          "Slack did not answer the start-up check of CHAT_BOT_TOKEN: starting with the stored installation",
        );
        return remember(deps, { teamId: stored.teamId, teamName: stored.teamName, outcome: "unchanged" });
      }
      const wait = delays[attempt];
      if (wait === undefined) {
        throw new ConfigError([
          `CHAT_BOT_TOKEN could not be checked: Slack's Web API (CHAT_API_URL) did not answer auth.test after ${attempt + 1} tries (${err.message})`,
        ]);
      }
      deps.log.warn(
        { err: err.message, attempt: attempt + 1, retryInMs: wait },
        "Slack did not answer the start-up check of CHAT_BOT_TOKEN: trying again",
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  if (stored?.teamId === grant.teamId) {
    // The same token: nothing is written (a rename shows after the next token change, as with OAuth's re-authorising).
    return remember(deps, { teamId: stored.teamId, teamName: stored.teamName, outcome: "unchanged" });
  }
  const before = await findInstallation(deps.db, grant.teamId);
  await storeInstallation(deps, grant);
  const outcome = !before ? "installed" : before.uninstalledAt ? "reinstalled" : "token_replaced";
  deps.log.info({ team_id: grant.teamId, outcome }, "workspace of CHAT_BOT_TOKEN installed");
  return remember(deps, { teamId: grant.teamId, teamName: grant.teamName, outcome });
}

function remember(deps: Deps, w: ConfiguredWorkspace): ConfiguredWorkspace {
  installedHere.set(deps.chat, { teamId: w.teamId });
  return w;
}
