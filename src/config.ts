import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";

/** The only reader of process.env. Every problem is listed at once, by variable name. */

export type LogLevel = "debug" | "info" | "warn";

export interface Config {
  readonly nodeEnv: string;
  readonly production: boolean;
  readonly port: number;
  readonly host: string;
  readonly appUrl: string;
  readonly databaseUrl: string;
  readonly chatClientId: string;
  readonly chatClientSecret: string;
  /**
   * CHAT_APP_TOKEN (`xapp-…`, scope `connections:write`): Slack's deliveries come over Socket Mode's WebSocket
   * instead of HTTP, so the instance needs no public address.
   */
  readonly chatAppToken: string | undefined;
  /**
   * CHAT_BOT_TOKEN (`xoxb-…` from "Install to Workspace"): one workspace, installed at start without OAuth;
   * CHAT_CLIENT_ID / CHAT_CLIENT_SECRET are then not needed.
   */
  readonly chatBotToken: string | undefined;
  /** Whether Slack credentials were given at all (a bot token, or the OAuth client): if not, `/` shows the setup page. */
  readonly slackConfigured: boolean;
  readonly chatSigningSecret: string;
  readonly sessionSecretKey: string;
  readonly chatApiUrl: string;
  readonly chatOauthUrl: string;
  readonly emailApiKey: string | undefined;
  readonly emailApiUrl: string;
  readonly emailFrom: string;
  readonly logLevel: LogLevel;
  /** Behind a load balancer: how many proxy hops to trust for the client address (0 = none). */
  readonly trustProxyHops: number;
  /**
   * Webhook endpoints may be private, loopback, link-local or shared addresses (internal services of a
   * self-hosted install). Off by default: only public addresses are reached.
   */
  readonly webhookAllowPrivate: boolean;
  /**
   * Bearer token GET /metrics asks for. Unset: /metrics is open outside production and off (404) in production,
   * where the instance faces the internet.
   */
  readonly metricsToken: string | undefined;
  /** Daily snapshots of the embedded database kept in <data>/backups (BACKUP_KEEP, default 7; 0 = none taken). */
  readonly backupKeep: number;
  /** The folder the embedded database, its snapshots and the generated development secrets live in. */
  readonly dataDir: string;
  /** Messages for the operator, printed once at start (never containing secrets). */
  readonly notices: readonly string[];
  /**
   * The demo only (`npm run demo`, never from the environment): `GET /demo/sign-in` signs anyone in as this
   * member, and the signed-out pages offer it, because a demo visitor has no Slack to get a link from.
   */
  readonly demoSignIn?: DemoSignIn;
  /** AI summaries' model (LLM_*); undefined: AI summaries are off on this server. */
  readonly llm: LlmConfig | undefined;
}

/**
 * A model behind an OpenAI-compatible chat completions API (OpenAI, Azure OpenAI, Ollama, vLLM, LiteLLM) for the
 * AI summaries; absent unless LLM_API_URL is set.
 */
export interface LlmConfig {
  /** Base URL without a trailing slash; the client posts to `${apiUrl}/chat/completions`. */
  readonly apiUrl: string;
  /** Sent as `Authorization: Bearer`; Ollama and most local servers need none. */
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly timeoutMs: number;
  /** Tokens one workspace may spend per UTC day; at or past it, summaries are skipped until the next day. */
  readonly dailyTokens: number;
}

export interface DemoSignIn {
  readonly teamId: string;
  readonly userId: string;
  /** Shown on the link: "Sign in as <name>". */
  readonly name: string;
  /** An ordinary member the demo also offers (`/demo/sign-in?as=member`), to see the dashboard as a member does. */
  readonly member?: { readonly userId: string; readonly name: string };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

const LOG_LEVELS: Record<string, LogLevel> = { DEBUG: "debug", INFO: "info", WARNING: "warn", WARN: "warn" };

const httpUrl = z.url({ protocol: /^https?$/ });

function noTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

interface Generated {
  chatSigningSecret?: string;
  sessionSecretKey?: string;
}

/** Outside production, missing secrets are generated once and kept under ./data so restarts keep sessions. */
function loadOrCreateDevSecrets(dataDir: string, need: (keyof Generated)[]): Generated {
  const file = join(dataDir, "dev-secrets.json");
  let stored: Generated = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, "utf8")) as Generated;
  let changed = false;
  for (const key of need) {
    if (!stored[key]) {
      stored[key] = randomBytes(32).toString("hex");
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return stored;
}

/**
 * APP_URL as the server reads it (required in production; `http://localhost:PORT` otherwise), on its own for tools
 * that need nothing else (`npm run manifest`). Problems are added to `problems`.
 */
export function readAppUrl(env: NodeJS.ProcessEnv, problems: string[]): string {
  const get = (name: string): string | undefined => env[name]?.trim() || undefined;
  const appUrl = get("APP_URL");
  if (!appUrl && env.NODE_ENV === "production") problems.push("APP_URL is required");
  if (appUrl && !httpUrl.safeParse(appUrl).success) problems.push("APP_URL must be an http(s) URL");
  const port = Number(get("PORT") ?? "3000");
  return noTrailingSlash(appUrl ?? `http://localhost:${Number.isInteger(port) ? port : 3000}`);
}

/**
 * DATABASE_URL as the server reads it (required in production; the embedded database in `<dataDir>/pglite`
 * otherwise), for tools that need nothing else (backup, restore, migrate): they must not ask for Slack's or the
 * session's secrets. Problems are added to `problems`.
 */
export function readDatabaseUrl(env: NodeJS.ProcessEnv, problems: string[], dataDir = "./data"): string {
  const url = env.DATABASE_URL?.trim() || undefined;
  if (!url && env.NODE_ENV === "production") problems.push("DATABASE_URL is required");
  if (url && !/^(postgres|postgresql):\/\/|^pglite:\/\//.test(url)) {
    problems.push("DATABASE_URL must start with postgres://, postgresql:// or pglite://");
  }
  return url ?? `pglite://${join(dataDir, "pglite")}`;
}

/** Only DATABASE_URL, for the database tools; throws ConfigError naming what is wrong. */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): Pick<Config, "databaseUrl"> {
  const problems: string[] = [];
  const databaseUrl = readDatabaseUrl(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return { databaseUrl };
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  opts: { dataDir?: string; demoSignIn?: DemoSignIn } = {},
): Config {
  const problems: string[] = [];
  const notices: string[] = [];
  const nodeEnv = env.NODE_ENV ?? "development";
  const production = nodeEnv === "production";
  const dataDir = opts.dataDir ?? "./data";
  const get = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };

  const required = (name: string): string | undefined => {
    const v = get(name);
    if (!v && production) problems.push(`${name} is required`);
    return v;
  };

  const port = Number(get("PORT") ?? "3000");
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push("PORT must be an integer 0-65535");

  const appUrl = readAppUrl(env, problems);

  const databaseUrl = readDatabaseUrl(env, problems, dataDir);

  const chatAppToken = get("CHAT_APP_TOKEN");
  if (chatAppToken && !/^xapp-[\x21-\x7e]+$/.test(chatAppToken)) {
    problems.push("CHAT_APP_TOKEN must be an app-level token (xapp-…, from Basic Information → App-Level Tokens)");
  }
  const chatBotToken = get("CHAT_BOT_TOKEN");
  if (chatBotToken && !/^xoxb-[\x21-\x7e]+$/.test(chatBotToken)) {
    problems.push("CHAT_BOT_TOKEN must be a bot token (xoxb-…, from OAuth & Permissions after Install to Workspace)");
  }
  const socketMode = chatAppToken !== undefined;
  const clientId = get("CHAT_CLIENT_ID");
  const clientSecret = get("CHAT_CLIENT_SECRET");
  if (production) {
    // One workspace (a bot token) or OAuth for any number of them (the client pair); half of the pair is a mistake.
    if (clientId && !clientSecret) problems.push("CHAT_CLIENT_SECRET is required with CHAT_CLIENT_ID");
    else if (clientSecret && !clientId) problems.push("CHAT_CLIENT_ID is required with CHAT_CLIENT_SECRET");
    else if (!chatBotToken && !clientId) {
      problems.push(
        "Slack credentials are required: CHAT_BOT_TOKEN (one workspace) or CHAT_CLIENT_ID and CHAT_CLIENT_SECRET (OAuth)",
      );
    }
    // Slack must reach an HTTP-mode instance and its OAuth redirect: that needs https. Over Socket Mode in one
    // workspace nothing comes from Slack over HTTP, so any address the team can open will do.
    const local = socketMode && chatBotToken !== undefined;
    if (!local && get("APP_URL") && !appUrl.startsWith("https://")) {
      problems.push(
        `APP_URL must be an https:// address Slack can reach; http:// or a local address needs Socket Mode in one workspace (${[
          socketMode ? "" : "CHAT_APP_TOKEN",
          chatBotToken ? "" : "CHAT_BOT_TOKEN",
        ]
          .filter(Boolean)
          .join(" and ")} missing)`,
      );
    }
  }
  const chatClientId = clientId ?? "local-dev-client-id";
  const chatClientSecret = clientSecret ?? "local-dev-client-secret";
  // Socket Mode deliveries are not signed (the socket is opened with the app token), so the secret is optional.
  let chatSigningSecret = socketMode ? get("CHAT_SIGNING_SECRET") : required("CHAT_SIGNING_SECRET");
  let sessionSecretKey = required("SESSION_SECRET_KEY");
  if (sessionSecretKey && sessionSecretKey.length < 32)
    problems.push("SESSION_SECRET_KEY must be at least 32 characters");
  if (chatSigningSecret && chatSigningSecret === clientSecret) {
    problems.push("CHAT_SIGNING_SECRET must differ from CHAT_CLIENT_SECRET");
  }

  const backupKeep = Number(get("BACKUP_KEEP") ?? "7");
  if (!Number.isInteger(backupKeep) || backupKeep < 0 || backupKeep > 365) {
    problems.push("BACKUP_KEEP must be an integer 0-365 (0 turns the daily snapshots off)");
  }

  const trustProxyHops = Number(get("TRUST_PROXY_HOPS") ?? "0");
  if (!Number.isInteger(trustProxyHops) || trustProxyHops < 0 || trustProxyHops > 10) {
    problems.push("TRUST_PROXY_HOPS must be an integer 0-10");
  }

  const allowPrivate = (get("WEBHOOK_ALLOW_PRIVATE") ?? "false").toLowerCase();
  if (!["true", "false", "1", "0"].includes(allowPrivate)) problems.push("WEBHOOK_ALLOW_PRIVATE must be true or false");

  const metricsToken = get("METRICS_TOKEN");
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    problems.push("METRICS_TOKEN must be 16 to 256 printable characters without spaces");
  }

  const rawLevel = (get("LOG_LEVEL") ?? "INFO").toUpperCase();
  const logLevel = LOG_LEVELS[rawLevel];
  if (!logLevel) problems.push("LOG_LEVEL must be DEBUG, INFO or WARNING");

  const chatApiUrl = get("CHAT_API_URL") ?? "https://slack.com/api/";
  if (!httpUrl.safeParse(chatApiUrl).success) problems.push("CHAT_API_URL must be an http(s) URL");
  const chatOauthUrl = get("CHAT_OAUTH_URL") ?? "https://slack.com/oauth/v2/authorize";
  if (!httpUrl.safeParse(chatOauthUrl).success) problems.push("CHAT_OAUTH_URL must be an http(s) URL");
  const emailApiUrl = get("EMAIL_API_URL") ?? "https://api.resend.com";
  if (!httpUrl.safeParse(emailApiUrl).success) problems.push("EMAIL_API_URL must be an http(s) URL");

  const llm = readLlm(get, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  // Socket Mode in production without a signing secret: the HTTP endpoints refuse every request (nothing is signed
  // with a secret no one knows), which is right, since Slack delivers over the socket.
  if (production && socketMode && !chatSigningSecret) chatSigningSecret = randomBytes(32).toString("hex");
  const missing = (["chatSigningSecret", "sessionSecretKey"] as const).filter((k) =>
    k === "chatSigningSecret" ? !chatSigningSecret : !sessionSecretKey,
  );
  if (missing.length > 0) {
    const generated = loadOrCreateDevSecrets(dataDir, [...missing]);
    chatSigningSecret ??= generated.chatSigningSecret;
    sessionSecretKey ??= generated.sessionSecretKey;
    notices.push(
      `Development mode: using generated CHAT_SIGNING_SECRET/SESSION_SECRET_KEY kept in ${join(dataDir, "dev-secrets.json")}; set them for a real install`,
    );
  }

  const slackConfigured = chatBotToken !== undefined || (clientId !== undefined && clientSecret !== undefined);
  if (!slackConfigured) notices.push(`No Slack credentials set yet: open ${appUrl} to connect Upbeat to your Slack`);
  if (production && metricsToken === undefined) notices.push("METRICS_TOKEN is not set: GET /metrics is off");

  const host = new URL(appUrl).hostname;
  return Object.freeze({
    nodeEnv,
    production,
    port,
    host: get("HOST") ?? "0.0.0.0",
    appUrl,
    databaseUrl,
    chatClientId,
    chatClientSecret,
    chatAppToken,
    chatBotToken,
    slackConfigured,
    chatSigningSecret: chatSigningSecret!,
    sessionSecretKey: sessionSecretKey!,
    chatApiUrl: chatApiUrl.endsWith("/") ? chatApiUrl : `${chatApiUrl}/`,
    chatOauthUrl,
    emailApiKey: get("EMAIL_API_KEY"),
    emailApiUrl: noTrailingSlash(emailApiUrl),
    emailFrom: get("EMAIL_FROM") ?? `Upbeat <noreply@${host}>`,
    logLevel: logLevel!,
    trustProxyHops,
    webhookAllowPrivate: allowPrivate === "true" || allowPrivate === "1",
    metricsToken,
    backupKeep,
    dataDir,
    notices: Object.freeze(notices),
    llm,
    ...(opts.demoSignIn ? { demoSignIn: Object.freeze({ ...opts.demoSignIn }) } : {}),
  });
}

/**
 * The longest LLM_TIMEOUT_MS allowed. An AI summary's claim counts as stale (another worker may take it over and call
 * the model again) after ai-summary's STALE_CLAIM_MS, 10 minutes: a call must always end well before that, or a live
 * call could be taken over and the model called twice.
 */
export const MAX_LLM_TIMEOUT_MS = 120_000;

/**
 * LLM_*: off unless LLM_API_URL is set. The URL is the operator's own choice (Ollama on localhost is normal), so
 * private addresses are allowed; credentials in it are refused, since URLs end up in messages and logs.
 */
function readLlm(get: (name: string) => string | undefined, problems: string[]): LlmConfig | undefined {
  const apiUrl = get("LLM_API_URL");
  const model = get("LLM_MODEL");
  const timeoutMs = Number(get("LLM_TIMEOUT_MS") ?? "30000");
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > MAX_LLM_TIMEOUT_MS) {
    problems.push(`LLM_TIMEOUT_MS must be an integer 100-${MAX_LLM_TIMEOUT_MS} (milliseconds)`);
  }
  const dailyTokens = Number(get("LLM_DAILY_TOKENS") ?? "200000");
  if (!Number.isInteger(dailyTokens) || dailyTokens < 0) {
    problems.push("LLM_DAILY_TOKENS must be a whole number of tokens (0 stops every AI summary)");
  }
  if (apiUrl === undefined) {
    if (model !== undefined) problems.push("LLM_MODEL is set but LLM_API_URL is not: set both to use AI summaries");
    return undefined;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(apiUrl);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    problems.push("LLM_API_URL must be an http(s) URL such as https://api.openai.com/v1 or http://127.0.0.1:11434/v1");
  } else if (parsed.username || parsed.password) {
    problems.push("LLM_API_URL must not contain credentials: put the key in LLM_API_KEY");
  }
  if (model === undefined) {
    problems.push("LLM_MODEL is required with LLM_API_URL (the model name, such as gpt-4o-mini or llama3.1)");
  }
  if (model !== undefined && model.length > 200) problems.push("LLM_MODEL must be at most 200 characters");
  return Object.freeze({
    apiUrl: noTrailingSlash(apiUrl),
    apiKey: get("LLM_API_KEY"),
    model: model ?? "",
    timeoutMs,
    dailyTokens,
  });
}
