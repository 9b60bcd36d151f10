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
  /** Messages for the operator, printed once at start (never containing secrets). */
  readonly notices: readonly string[];
  /**
   * The demo only (`npm run demo`, never from the environment): `GET /demo/sign-in` signs anyone in as this
   * member, and the signed-out pages offer it, because a demo visitor has no Slack to get a link from.
   */
  readonly demoSignIn?: DemoSignIn;
}

export interface DemoSignIn {
  readonly teamId: string;
  readonly userId: string;
  /** Shown on the link: "Sign in as <name>". */
  readonly name: string;
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

  let databaseUrl = required("DATABASE_URL");
  if (databaseUrl && !/^(postgres|postgresql):\/\/|^pglite:\/\//.test(databaseUrl)) {
    problems.push("DATABASE_URL must start with postgres://, postgresql:// or pglite://");
  }
  databaseUrl ??= `pglite://${join(dataDir, "pglite")}`;

  const chatClientId = required("CHAT_CLIENT_ID") ?? "local-dev-client-id";
  const chatClientSecret = required("CHAT_CLIENT_SECRET") ?? "local-dev-client-secret";
  let chatSigningSecret = required("CHAT_SIGNING_SECRET");
  let sessionSecretKey = required("SESSION_SECRET_KEY");
  if (sessionSecretKey && sessionSecretKey.length < 32)
    problems.push("SESSION_SECRET_KEY must be at least 32 characters");
  if (chatSigningSecret && chatSigningSecret === get("CHAT_CLIENT_SECRET")) {
    problems.push("CHAT_SIGNING_SECRET must differ from CHAT_CLIENT_SECRET");
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

  if (problems.length > 0) throw new ConfigError(problems);

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
    notices: Object.freeze(notices),
    ...(opts.demoSignIn ? { demoSignIn: Object.freeze({ ...opts.demoSignIn }) } : {}),
  });
}
