import { z } from "zod";

/**
 * A Slack app manifest (version 1 format), as `GET /chat/manifest` answers it: the parts this service declares. The
 * request URLs are absent from the Socket Mode manifest (Slack delivers over the socket), and the OAuth redirect URL
 * is absent where OAuth cannot work (a Socket Mode instance without an https address).
 */
export const appManifest = z.object({
  _metadata: z.object({ major_version: z.literal(1), minor_version: z.literal(1) }),
  display_information: z.object({
    name: z.string(),
    description: z.string(),
    long_description: z.string(),
    background_color: z.string(),
  }),
  features: z.object({
    app_home: z.object({
      home_tab_enabled: z.boolean(),
      messages_tab_enabled: z.boolean(),
      messages_tab_read_only_enabled: z.boolean(),
    }),
    bot_user: z.object({ display_name: z.string(), always_online: z.boolean() }),
    slash_commands: z.array(
      z.object({ command: z.string(), url: z.string().optional(), description: z.string(), usage_hint: z.string() }),
    ),
  }),
  oauth_config: z.object({
    redirect_urls: z.array(z.string()).optional(),
    scopes: z.object({ bot: z.array(z.string()) }),
  }),
  settings: z.object({
    event_subscriptions: z.object({ request_url: z.string().optional(), bot_events: z.array(z.string()) }),
    interactivity: z.object({ is_enabled: z.boolean(), request_url: z.string().optional() }),
    org_deploy_enabled: z.boolean(),
    socket_mode_enabled: z.boolean(),
    token_rotation_enabled: z.boolean(),
  }),
});

/** How Slack reaches the instance: Socket Mode (a WebSocket the instance opens) or HTTP request URLs. */
export const slackTransport = z.enum(["http", "socket"]);

export const manifestQuery = z.object({
  mode: slackTransport
    .optional()
    .describe(
      "`http` (the default): request URLs under APP_URL. `socket`: Socket Mode, no request URLs (for an instance " +
        "Slack cannot reach, such as http://localhost).",
    ),
});
