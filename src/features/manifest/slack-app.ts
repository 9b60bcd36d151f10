/**
 * The Slack app this service is: the one list of bot scopes and bot events. `/install` asks Slack for BOT_SCOPES and
 * the app manifest declares both lists, so they cannot drift apart. slack-app.test.ts maps every Web API method the
 * code calls and every event it listens to onto these lists, and fails when a call or listener has no scope here (or
 * a scope here serves nothing).
 */

/** Bot token scopes, each with what needs it. */
export const BOT_SCOPE_REASONS = {
  /** conversations.history / conversations.replies in public channels (a post's lookup after an unclear failure); the `message.channels` event (kudos). */
  "channels:history": "read public channel messages: kudos in channels, finding a post after an unclear failure",
  /** conversations.join: the bot joins the public channel a standup posts in. */
  "channels:join": "join the public channel a standup posts in",
  /** conversations.info / list / members for public channels: the channel picker, channel checks, who a run asks. */
  "channels:read": "list public channels and their members",
  /** chat.postMessage, chat.update, chat.postEphemeral. */
  "chat:write": "post questions, summaries, reminders and replies",
  /** The /upbeat slash command. */
  commands: "the /upbeat slash command",
  /** conversations.history / conversations.replies in private channels a standup posts in (the post lookup). */
  "groups:history": "find its own post in a private standup channel after an unclear failure",
  /** conversations.info / list / members for private channels the bot was invited to. */
  "groups:read": "see the private channels it was invited to and their members",
  /** The `message.im` event (answers in DMs) and conversations.history in DMs (the post lookup). */
  "im:history": "read answers sent to it in direct messages",
  /** conversations.open: the DM a standup asks in, a rule or celebration notifies in. */
  "im:write": "open direct messages",
  /** reactions.add: the reaction on a message that gave kudos, and on celebrations. */
  "reactions:write": "react to kudos and celebrations",
  /** team.info: the workspace's name when one workspace is installed from its bot token (CHAT_BOT_TOKEN), without OAuth. */
  "team:read": "the workspace's name, when installed with its bot token",
  /** users.list / users.info (member sync, profiles, timezones); the `team_join` and `user_change` events. */
  "users:read": "list members, their names and timezones",
  /** The members' e-mail addresses (users.list / users.info): welcome and digest e-mails. */
  "users:read.email": "members' e-mail addresses for welcome and digest e-mails",
} as const;

export type BotScope = keyof typeof BOT_SCOPE_REASONS;
export const BOT_SCOPES = Object.keys(BOT_SCOPE_REASONS).sort() as readonly BotScope[];

/**
 * Bot events, each with what listens to it. `message.groups` (kudos in private channels) is not here: it stays
 * opt-in, added to the app by hand (see Kudos in docs/people.md).
 */
export const BOT_EVENT_REASONS = {
  app_home_opened: "the Home tab shows the member's standups",
  app_uninstalled: "uninstall ends access and stops all work",
  "message.channels": "kudos given in public channels",
  "message.im": "standup answers sent as direct messages",
  team_join: "new members join the member list",
  tokens_revoked: "a revoked bot token ends access like an uninstall",
  user_change: "name, timezone, e-mail and deactivation changes",
} as const;

export type BotEvent = keyof typeof BOT_EVENT_REASONS;
export const BOT_EVENTS = Object.keys(BOT_EVENT_REASONS).sort() as readonly BotEvent[];

/** The slash command the manifest declares. Any name works: the service answers whatever command Slack sends it. */
export const SLASH_COMMAND = {
  command: "/upbeat",
  description: "Your standup profile and what Upbeat can do",
  usage_hint: "[answer | away | back | kudos | profile | skip | help]",
} as const;
