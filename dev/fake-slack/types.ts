/** Public types of the fake Slack Web API. */

export interface FakeSlackOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** app_id reported by every workspace, as one Slack app installed in many workspaces. */
  appId?: string;
  /** Time source in epoch ms for message ts and recorded calls; defaults to Date.now. */
  now?: () => number;
}

export interface FakeTeamInput {
  id: string;
  name: string;
  domain?: string;
  botToken: string;
  /** Defaults to `U<team id without T>BOT`. */
  botUserId?: string;
  /** Defaults to `B<team id without T>`. */
  botId?: string;
  /** Display name of the bot user. */
  botName?: string;
  /**
   * Bot token scopes. When omitted the token gets every scope the fake knows about,
   * including chat:write.public; when given, methods answer `missing_scope` like Slack does.
   */
  scopes?: string[] | string;
}

export interface FakeUserInput {
  id: string;
  name: string;
  real_name: string;
  display_name?: string;
  email?: string;
  /** IANA zone; defaults to America/Los_Angeles like a fresh Slack account. */
  tz?: string;
  is_bot?: boolean;
  is_app_user?: boolean;
  deleted?: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  image_72?: string;
}

export interface FakeChannelInput {
  id: string;
  name: string;
  is_archived?: boolean;
  is_private?: boolean;
  /** User ids. Include the bot user id when the bot has been invited. */
  members: string[];
  topic?: string;
  purpose?: string;
}

export interface FakeOAuthCodeInput {
  team: { id: string; name: string; domain?: string };
  botToken: string;
  botUserId: string;
  /** Comma-separated bot scopes, as Slack returns them. */
  scope: string;
  authedUserId: string;
  /** Comma-separated user scopes; with userToken adds access_token to authed_user. */
  userScope?: string;
  userToken?: string;
  appId?: string;
  /** When set, the exchange must present these or fail like Slack. */
  clientId?: string;
  clientSecret?: string;
  redirectUri?: string;
}

export type Fault =
  | { status: 429; retryAfter?: number }
  | { status: 500 | 502 | 503 | 504 }
  | { drop: true }
  | { error: string }
  /**
   * Slow in front of Slack: the call waits this long, then is handled and answered as usual. Like Slack, the
   * fake acts on it even if the client has gone away meanwhile (timed out, or its process was killed).
   */
  | { delayMs: number };

export interface RandomFaults {
  /** Omit to fault every method. */
  method?: string;
  /** Fraction of eligible calls to fault, 0..1. */
  ratio: number;
  fault: Fault;
  seed: number;
}

export type Args = Record<string, unknown>;

export interface RecordedCall {
  method: string;
  /** Team the token belongs to (or that oauth.v2.access installed); null when unknown. */
  teamId: string | null;
  token: string | null;
  /**
   * Arguments as sent, minus `token`. Form values stay strings ("20", "true");
   * blocks, attachments, view and metadata are parsed back from JSON.
   */
  args: Args;
  at: number;
  /** What the client was told: false for Slack errors and every fault. */
  ok: boolean;
  error?: string;
  faulted?: true;
}

export interface FakeReaction {
  name: string;
  users: string[];
  count: number;
}

/** A message the bot posted (or a person's, from postAsUser), as it stands now (after updates). */
export interface FakeMessage {
  teamId: string;
  channel: string;
  ts: string;
  text: string;
  user: string;
  /** Empty for a person's message. */
  bot_id: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  thread_ts?: string;
  reply_broadcast?: boolean;
  edited?: { user: string; ts: string };
  reactions: FakeReaction[];
}

export interface FakeEphemeral {
  teamId: string;
  channel: string;
  user: string;
  ts: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
}

export interface FakeView {
  id: string;
  teamId: string;
  type: string;
  /** The view object as last sent by the app. */
  view: Record<string, unknown>;
  hash: string;
  external_id: string;
  root_view_id: string;
  previous_view_id: string | null;
  /** For home tabs: the user it was published to. */
  user_id?: string;
  /** Whether it was opened, pushed or published. */
  via: "views.open" | "views.push" | "views.publish";
}

/** Socket Mode (socket-mode.ts). */
export type EnvelopeType = "events_api" | "slash_commands" | "interactive";
export type DisconnectReason = "refresh_requested" | "warning" | "link_disabled";

export interface SocketAck {
  envelopeId: string;
  /** What the app acknowledged with (`{}` when it sent none). */
  payload: Record<string, unknown>;
  /** Which delivery of the envelope was acknowledged: 0 the first, 1 its first retry … */
  attempt: number;
  connectionId: number;
}

export interface SocketDelivery {
  envelopeId: string;
  /** Resolves with the first ack, or with undefined once Slack would give up (no ack to the last attempt). */
  acked: Promise<SocketAck | undefined>;
  /** Deliveries so far (1 + retries). */
  readonly attempts: number;
}

export interface DeliveryRecord {
  envelopeId: string;
  type: EnvelopeType;
  attempt: number;
  connectionId: number;
}

export interface ConnectionEvent {
  event: "open" | "close";
  connectionId: number;
}
