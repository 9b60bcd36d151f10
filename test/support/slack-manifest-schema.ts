/**
 * Test support: a Slack app manifest checked against Slack's rules, shared by the manifest and setup-page tests.
 *
 * The constraints of Slack's published app-manifest JSON schema (slackapi/manifest-schema, schemas/
 * manifest.schema.1.0.0.json) that our manifest relies on, written out here: which keys each object may have
 * (`additionalProperties: false`), the required ones, string lengths and patterns, booleans, array sizes. The
 * schema does not enumerate scopes or events; those are checked against the names in Slack's scope and event
 * references below.
 */
export type Json = Record<string, unknown>;

/** Slack bot token scopes (api.slack.com/scopes), the ones an app like this could ask for. */
const SLACK_BOT_SCOPES = new Set([
  "app_mentions:read",
  "channels:history",
  "channels:join",
  "channels:manage",
  "channels:read",
  "chat:write",
  "chat:write.customize",
  "chat:write.public",
  "commands",
  "emoji:read",
  "files:read",
  "files:write",
  "groups:history",
  "groups:read",
  "groups:write",
  "im:history",
  "im:read",
  "im:write",
  "mpim:history",
  "mpim:read",
  "mpim:write",
  "pins:read",
  "pins:write",
  "reactions:read",
  "reactions:write",
  "team:read",
  "usergroups:read",
  "users.profile:read",
  "users:read",
  "users:read.email",
  "users:write",
]);

/** Slack Events API event types (api.slack.com/events) a bot can subscribe to, the ones relevant here. */
const SLACK_BOT_EVENTS = new Set([
  "app_home_opened",
  "app_mention",
  "app_uninstalled",
  "channel_archive",
  "channel_deleted",
  "member_joined_channel",
  "message.channels",
  "message.groups",
  "message.im",
  "message.mpim",
  "reaction_added",
  "team_join",
  "tokens_revoked",
  "user_change",
]);

const URL_PATTERN = /^https?:\/\//;

export function slackSchemaProblems(m: Json): string[] {
  const problems: string[] = [];
  const obj = (v: unknown, at: string, allowed: string[], required: string[] = []): Json => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      problems.push(`${at} must be an object`);
      return {};
    }
    for (const k of Object.keys(v)) if (!allowed.includes(k)) problems.push(`${at}.${k} is not allowed`);
    for (const k of required) if (!(k in v)) problems.push(`${at}.${k} is required`);
    return v as Json;
  };
  const str = (v: unknown, at: string, min: number, max: number, pattern?: RegExp) => {
    if (v === undefined) return;
    if (typeof v !== "string") {
      problems.push(`${at} must be a string`);
      return;
    }
    if (v.length < min || v.length > max) problems.push(`${at} must be ${min}-${max} characters (${v.length})`);
    if (pattern && !pattern.test(v)) problems.push(`${at} must match ${pattern}`);
  };
  const bool = (v: unknown, at: string) => {
    if (v !== undefined && typeof v !== "boolean") problems.push(`${at} must be a boolean`);
  };
  const arr = (v: unknown, at: string, max: number, unique = false, min = 0): unknown[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      problems.push(`${at} must be an array`);
      return [];
    }
    if (v.length < min || v.length > max) problems.push(`${at} must have ${min}-${max} items`);
    if (unique && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) problems.push(`${at} has duplicates`);
    return v;
  };

  const root = obj(m, "manifest", [
    "$schema",
    "_metadata",
    "display_information",
    "features",
    "oauth_config",
    "settings",
    "app_directory",
  ]);
  if (!("display_information" in root)) problems.push("manifest.display_information is required");
  const meta = obj(root._metadata, "_metadata", ["schema_version", "min_version", "major_version", "minor_version"]);
  for (const [k, v] of Object.entries(meta))
    if (!Number.isInteger(v)) problems.push(`_metadata.${k} must be an integer`);

  const di = obj(
    root.display_information,
    "display_information",
    ["name", "description", "background_color", "long_description"],
    ["name"],
  );
  str(di.name, "display_information.name", 1, 35);
  str(di.description, "display_information.description", 1, 140);
  str(di.background_color, "display_information.background_color", 4, 7, /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/);
  str(di.long_description, "display_information.long_description", 175, 4000);

  const f = obj(root.features, "features", [
    "app_home",
    "bot_user",
    "functions",
    "shortcuts",
    "slash_commands",
    "workflow_steps",
    "unfurl_domains",
    "assistant_view",
    "agent_view",
  ]);
  const home = obj(f.app_home, "features.app_home", [
    "home_tab_enabled",
    "messages_tab_enabled",
    "messages_tab_read_only_enabled",
  ]);
  for (const [k, v] of Object.entries(home)) bool(v, `features.app_home.${k}`);
  const bot = obj(f.bot_user, "features.bot_user", ["display_name", "always_online"], ["display_name"]);
  str(bot.display_name, "features.bot_user.display_name", 1, 80);
  bool(bot.always_online, "features.bot_user.always_online");
  arr(f.slash_commands, "features.slash_commands", 50, false, 1).forEach((c, i) => {
    const at = `features.slash_commands[${i}]`;
    const cmd = obj(
      c,
      at,
      ["command", "url", "description", "usage_hint", "should_escape"],
      ["command", "description"],
    );
    str(cmd.command, `${at}.command`, 2, 32, /^\//);
    str(cmd.url, `${at}.url`, 0, 3000, URL_PATTERN);
    str(cmd.description, `${at}.description`, 1, 2000);
    str(cmd.usage_hint, `${at}.usage_hint`, 1, 1000);
    bool(cmd.should_escape, `${at}.should_escape`);
  });

  const oauth = obj(root.oauth_config, "oauth_config", [
    "redirect_urls",
    "scopes",
    "token_management_enabled",
    "pkce_enabled",
  ]);
  arr(oauth.redirect_urls, "oauth_config.redirect_urls", 1000, true).forEach((u, i) => {
    str(u, `oauth_config.redirect_urls[${i}]`, 0, 2500);
  });
  const scopes = obj(oauth.scopes, "oauth_config.scopes", ["user", "bot", "user_optional", "bot_optional"]);
  arr(scopes.bot, "oauth_config.scopes.bot", 255).forEach((s, i) => {
    str(s, `oauth_config.scopes.bot[${i}]`, 0, 50);
    if (!SLACK_BOT_SCOPES.has(s as string)) problems.push(`oauth_config.scopes.bot: unknown scope ${String(s)}`);
  });

  const settings = obj(root.settings, "settings", [
    "allowed_ip_address_ranges",
    "event_subscriptions",
    "incoming_webhooks",
    "interactivity",
    "org_deploy_enabled",
    "socket_mode_enabled",
    "is_hosted",
    "token_rotation_enabled",
    "siws_links",
    "hermes_app_type",
    "function_runtime",
    "is_mcp_enabled",
  ]);
  const ev = obj(settings.event_subscriptions, "settings.event_subscriptions", [
    "request_url",
    "user_events",
    "bot_events",
    "metadata_subscriptions",
  ]);
  str(ev.request_url, "settings.event_subscriptions.request_url", 0, 3500, URL_PATTERN);
  arr(ev.bot_events, "settings.event_subscriptions.bot_events", 100, true).forEach((e, i) => {
    str(e, `settings.event_subscriptions.bot_events[${i}]`, 0, 50);
    if (!SLACK_BOT_EVENTS.has(e as string)) problems.push(`bot_events: unknown event ${String(e)}`);
  });
  const inter = obj(
    settings.interactivity,
    "settings.interactivity",
    ["is_enabled", "request_url", "message_menu_options_url"],
    ["is_enabled"],
  );
  bool(inter.is_enabled, "settings.interactivity.is_enabled");
  str(inter.request_url, "settings.interactivity.request_url", 0, 3500, URL_PATTERN);
  for (const k of ["org_deploy_enabled", "socket_mode_enabled", "is_hosted", "token_rotation_enabled"]) {
    bool(settings[k], `settings.${k}`);
  }
  return problems;
}

/**
 * Where Slack delivers, beyond the JSON schema (which makes every URL optional): with Socket Mode off, Slack's app
 * settings need a request URL for events, for interactivity and for each slash command (api.slack.com/apis/events-api,
 * /interactivity/handling, /interactivity/slash-commands); with it on, deliveries come over the socket and a request
 * URL would be one Slack never uses, so ours names none.
 */
export function slackDeliveryProblems(m: Json): string[] {
  const settings = (m.settings ?? {}) as Json & { event_subscriptions?: Json; interactivity?: Json };
  const commands = ((m.features as Json | undefined)?.slash_commands ?? []) as Json[];
  const socket = settings.socket_mode_enabled === true;
  const urls: [string, unknown, boolean][] = [
    ["settings.event_subscriptions.request_url", settings.event_subscriptions?.request_url, true],
    [
      "settings.interactivity.request_url",
      settings.interactivity?.request_url,
      settings.interactivity?.is_enabled === true,
    ],
    ...commands.map((c, i): [string, unknown, boolean] => [`features.slash_commands[${i}].url`, c.url, true]),
  ];
  const problems: string[] = [];
  for (const [at, url, needed] of urls) {
    if (socket && url !== undefined) problems.push(`${at} is not used in Socket Mode`);
    if (!socket && needed && url === undefined) problems.push(`${at} is required without Socket Mode`);
  }
  return problems;
}
