import type { z } from "zod";
import type { appManifest } from "../../contract/index.ts";
import { BOT_EVENTS, BOT_SCOPES, SLASH_COMMAND } from "./slack-app.ts";
import type { SlackTransport } from "./transport.ts";

export type AppManifest = z.output<typeof appManifest>;

const LONG_DESCRIPTION = [
  "Upbeat runs your team's standups in Slack, on your own server.",
  "At each standup's time it asks every member in a direct message, in their own timezone, and posts a summary to",
  "the channel when everyone has answered or the window closes. Blockers stand out, kudos are counted, and the",
  "dashboard shows participation, reports and trends. Type /upbeat to see your profile, skip a day, mark time off or",
  "give kudos. Answers are kept in this instance's own database.",
].join(" ");

/**
 * The Slack app manifest for the instance at `appUrl` (no trailing slash): paste it into "Create New App → From an
 * app manifest". Nothing secret in it; the scopes and events are the same lists `/install` uses.
 *
 * In Socket Mode Slack delivers events, interactions and slash commands over the WebSocket the instance opens, so the
 * manifest names no request URL (Slack's manifest schema makes every `request_url` and the slash command's `url`
 * optional; api.slack.com/socket-mode: Socket Mode works "without exposing a public HTTP Request URL"). The OAuth redirect URL
 * stays only where OAuth can work, an https APP_URL: one workspace over Socket Mode installs with "Install to
 * Workspace" and needs none.
 */
export function buildManifest(appUrl: string, transport: SlackTransport = "http"): AppManifest {
  const socket = transport === "socket";
  const oauthRedirect = !socket || appUrl.startsWith("https://");
  return {
    _metadata: { major_version: 1, minor_version: 1 },
    display_information: {
      name: "Upbeat",
      description: "Asynchronous standups in Slack: questions by DM, a summary in the channel, a dashboard.",
      long_description: LONG_DESCRIPTION,
      background_color: "#2c2d72",
    },
    features: {
      app_home: { home_tab_enabled: true, messages_tab_enabled: true, messages_tab_read_only_enabled: false },
      bot_user: { display_name: "Upbeat", always_online: true },
      slash_commands: [socket ? { ...SLASH_COMMAND } : { ...SLASH_COMMAND, url: `${appUrl}/chat/commands` }],
    },
    oauth_config: {
      ...(oauthRedirect ? { redirect_urls: [`${appUrl}/oauth/callback`] } : {}),
      scopes: { bot: [...BOT_SCOPES] },
    },
    settings: {
      event_subscriptions: socket
        ? { bot_events: [...BOT_EVENTS] }
        : { request_url: `${appUrl}/chat/events`, bot_events: [...BOT_EVENTS] },
      interactivity: socket ? { is_enabled: true } : { is_enabled: true, request_url: `${appUrl}/chat/interactions` },
      org_deploy_enabled: false,
      socket_mode_enabled: socket,
      token_rotation_enabled: false,
    },
  };
}
