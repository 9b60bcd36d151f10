/** In-memory workspace state of the fake Slack, indexed so each API call costs O(1) or O(page). */
import type {
  FakeChannelInput,
  FakeEphemeral,
  FakeMessage,
  FakeOAuthCodeInput,
  FakeTeamInput,
  FakeUserInput,
  FakeView,
} from "./types.ts";

/** Every scope a method of the fake checks, so teams added without explicit scopes can call everything. */
export const ALL_BOT_SCOPES = [
  "channels:history",
  "channels:join",
  "channels:read",
  "chat:write",
  "chat:write.public",
  "commands",
  "groups:history",
  "groups:read",
  "im:history",
  "im:read",
  "im:write",
  "mpim:history",
  "mpim:read",
  "mpim:write",
  "reactions:read",
  "reactions:write",
  "team:read",
  "users:read",
  "users:read.email",
];

export type ConvKind = "public" | "private" | "im" | "mpim";

export interface TeamRec {
  id: string;
  name: string;
  domain: string;
  botUserId: string;
  botId: string;
  botName: string;
  created: number;
  users: UserRec[];
  userIndex: Map<string, number>;
  emailIndex: Map<string, string>;
  convs: ConvRec[];
  convIndex: Map<string, ConvRec>;
  nameIndex: Map<string, string>;
  dms: Map<string, ConvRec>;
  mpims: Map<string, ConvRec>;
  homeViews: Map<string, FakeView>;
}

export interface UserRec {
  id: string;
  deleted: boolean;
  email?: string;
  /** Precomputed API shape, so users.list only slices. */
  json: Record<string, unknown>;
}

export interface ConvRec {
  id: string;
  teamId: string;
  name: string;
  kind: ConvKind;
  isArchived: boolean;
  members: string[];
  memberSet: Set<string>;
  created: number;
  topic: string;
  purpose: string;
  /** The other party of an IM. */
  user?: string;
  /** Ascending by ts, replies and deleted messages included. */
  messages: MsgRec[];
}

export interface MsgRec extends FakeMessage {
  micros: number;
  deleted: boolean;
  replies: MsgRec[];
  parent?: MsgRec;
}

export interface TokenRec {
  token: string;
  teamId: string;
  kind: "bot" | "user";
  userId: string;
  scopes: string[];
  revoked: boolean;
}

export function parseScopes(scopes: string[] | string | undefined): string[] {
  if (scopes === undefined) return ALL_BOT_SCOPES;
  const list = Array.isArray(scopes) ? scopes : scopes.split(",");
  return list.map((s) => s.trim()).filter((s) => s !== "");
}

/** Slack ts strings compare as numbers; micros avoid float rounding. */
export function tsToMicros(ts: string): number {
  const [sec = "0", frac = ""] = ts.split(".");
  return Number(sec) * 1_000_000 + Number(frac.padEnd(6, "0").slice(0, 6));
}

export function microsToTs(micros: number): string {
  return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, "0")}`;
}

/** A message without the internal links, so tests can compare it with toEqual and print it. */
export function snapshot(m: MsgRec): FakeMessage {
  const { micros: _m, deleted: _d, replies: _r, parent: _p, reactions, ...fields } = m;
  return { ...fields, reactions: reactions.map((r) => ({ ...r, users: [...r.users] })) };
}

function tzInfo(tz: string, at: number): { offset: number; label: string } {
  const part = (style: "longOffset" | "long") =>
    new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: style })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(part("longOffset"));
  const offset = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
  return { offset, label: part("long") };
}

export class Store {
  readonly teams = new Map<string, TeamRec>();
  readonly tokens = new Map<string, TokenRec>();
  readonly codes = new Map<string, FakeOAuthCodeInput>();
  readonly views = new Map<string, FakeView>();
  readonly viewsByExternalId = new Map<string, FakeView>();
  readonly #allMessages: MsgRec[] = [];
  readonly ephemerals: FakeEphemeral[] = [];
  readonly #messagesByKey = new Map<string, MsgRec>();
  readonly #messagesByChannel = new Map<string, MsgRec[]>();
  #lastMicros = 0;
  #seq = 0;
  baseUrl = "";

  constructor(
    readonly appId: string,
    readonly now: () => number,
  ) {}

  /** Strictly increasing across the whole fake, close to wall time like real ts values. */
  nextTs(): { ts: string; micros: number } {
    this.#lastMicros = Math.max(this.#lastMicros + 1, Math.floor(this.now()) * 1000);
    return { ts: microsToTs(this.#lastMicros), micros: this.#lastMicros };
  }

  nextId(prefix: string): string {
    this.#seq += 1;
    return `${prefix}${String(this.#seq).padStart(10, "0")}`;
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  avatarUrl(id: string): string {
    return `${this.baseUrl}avatars/${id}.svg`;
  }

  addTeam(input: FakeTeamInput): TeamRec {
    const suffix = input.id.replace(/^T/, "");
    const existing = this.teams.get(input.id);
    const team: TeamRec = existing ?? {
      id: input.id,
      name: input.name,
      domain: "",
      botUserId: "",
      botId: "",
      botName: "",
      created: this.nowSeconds(),
      users: [],
      userIndex: new Map(),
      emailIndex: new Map(),
      convs: [],
      convIndex: new Map(),
      nameIndex: new Map(),
      dms: new Map(),
      mpims: new Map(),
      homeViews: new Map(),
    };
    team.name = input.name;
    team.domain = input.domain ?? existing?.domain ?? input.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    team.botUserId = input.botUserId ?? existing?.botUserId ?? `U${suffix}BOT`;
    team.botId = input.botId ?? existing?.botId ?? `B${suffix}`;
    team.botName = input.botName ?? existing?.botName ?? "upbeat";
    this.teams.set(team.id, team);
    this.addToken({
      token: input.botToken,
      teamId: team.id,
      kind: "bot",
      userId: team.botUserId,
      scopes: parseScopes(input.scopes),
      revoked: false,
    });
    if (!existing) {
      this.addUser(team.id, { id: "USLACKBOT", name: "slackbot", real_name: "Slackbot" });
    }
    if (!team.userIndex.has(team.botUserId)) {
      this.addUser(team.id, { id: team.botUserId, name: team.botName, real_name: team.botName, is_bot: true });
    }
    return team;
  }

  addToken(rec: TokenRec): void {
    const other = this.tokens.get(rec.token);
    if (other && other.teamId !== rec.teamId) {
      throw new Error(`fake-slack: token already belongs to team ${other.teamId}`);
    }
    this.tokens.set(rec.token, rec);
  }

  team(teamId: string): TeamRec {
    const team = this.teams.get(teamId);
    if (!team) throw new Error(`fake-slack: unknown team ${teamId}; call addTeam first`);
    return team;
  }

  addUser(teamId: string, input: FakeUserInput): void {
    const team = this.team(teamId);
    const tz = input.tz ?? "America/Los_Angeles";
    const { offset, label } = tzInfo(tz, this.now());
    const displayName = input.display_name ?? "";
    const profile: Record<string, unknown> = {
      real_name: input.real_name,
      real_name_normalized: input.real_name,
      display_name: displayName,
      display_name_normalized: displayName,
      status_text: "",
      status_emoji: "",
      image_72: input.image_72 ?? this.avatarUrl(input.id),
      image_192: input.image_72 ?? this.avatarUrl(input.id),
      team: teamId,
    };
    if (input.email !== undefined) profile.email = input.email;
    const isBot = input.is_bot ?? false;
    if (input.id === team.botUserId) profile.bot_id = team.botId;
    const json = {
      id: input.id,
      team_id: teamId,
      name: input.name,
      deleted: input.deleted ?? false,
      color: "9f69e7",
      real_name: input.real_name,
      tz,
      tz_label: label,
      tz_offset: offset,
      profile,
      is_admin: input.is_admin ?? false,
      is_owner: input.is_owner ?? false,
      is_primary_owner: input.is_primary_owner ?? false,
      is_restricted: input.is_restricted ?? false,
      is_ultra_restricted: input.is_ultra_restricted ?? false,
      is_bot: isBot,
      is_app_user: input.is_app_user ?? false,
      updated: this.nowSeconds(),
      is_email_confirmed: input.email !== undefined,
    };
    const rec: UserRec = { id: input.id, deleted: json.deleted, email: input.email, json };
    const at = team.userIndex.get(input.id);
    if (at === undefined) {
      team.userIndex.set(input.id, team.users.length);
      team.users.push(rec);
    } else {
      const old = team.users[at];
      if (old?.email) team.emailIndex.delete(old.email.toLowerCase());
      team.users[at] = rec;
    }
    if (input.email) team.emailIndex.set(input.email.toLowerCase(), input.id);
  }

  user(team: TeamRec, userId: string): UserRec | undefined {
    const at = team.userIndex.get(userId);
    return at === undefined ? undefined : team.users[at];
  }

  addChannel(teamId: string, input: FakeChannelInput): ConvRec {
    const team = this.team(teamId);
    const existing = team.convIndex.get(input.id);
    const conv: ConvRec = {
      id: input.id,
      teamId,
      name: input.name,
      kind: input.is_private ? "private" : "public",
      isArchived: input.is_archived ?? false,
      members: [...input.members],
      memberSet: new Set(input.members),
      created: existing?.created ?? this.nowSeconds(),
      topic: input.topic ?? "",
      purpose: input.purpose ?? "",
      messages: existing?.messages ?? [],
    };
    if (existing) {
      team.convs[team.convs.indexOf(existing)] = conv;
      if (existing.name !== conv.name) team.nameIndex.delete(existing.name);
    } else {
      team.convs.push(conv);
    }
    team.convIndex.set(conv.id, conv);
    team.nameIndex.set(conv.name, conv.id);
    return conv;
  }

  /** The bot's IM with a user, created on first use with an id that then never changes. */
  openDm(team: TeamRec, userId: string): { conv: ConvRec; existed: boolean } {
    const found = team.dms.get(userId);
    if (found) return { conv: found, existed: true };
    const conv = this.#newConv(team, this.nextId("D"), "", "im", [userId, team.botUserId]);
    conv.user = userId;
    team.dms.set(userId, conv);
    return { conv, existed: false };
  }

  openMpim(team: TeamRec, userIds: string[]): { conv: ConvRec; existed: boolean } {
    const members = [...new Set([...userIds, team.botUserId])].sort();
    const key = members.join(",");
    const found = team.mpims.get(key);
    if (found) return { conv: found, existed: true };
    const names = members.map((id) => (this.user(team, id)?.json.name as string | undefined) ?? id);
    const conv = this.#newConv(team, this.nextId("G"), `mpdm-${names.join("--")}-1`, "mpim", members);
    team.mpims.set(key, conv);
    return { conv, existed: false };
  }

  #newConv(team: TeamRec, id: string, name: string, kind: ConvKind, members: string[]): ConvRec {
    const conv: ConvRec = {
      id,
      teamId: team.id,
      name,
      kind,
      isArchived: false,
      members,
      memberSet: new Set(members),
      created: this.nowSeconds(),
      topic: "",
      purpose: "",
      messages: [],
    };
    team.convs.push(conv);
    team.convIndex.set(id, conv);
    return conv;
  }

  addMessage(
    team: TeamRec,
    conv: ConvRec,
    fields: Omit<FakeMessage, "teamId" | "channel" | "ts" | "reactions">,
  ): MsgRec {
    const { ts, micros } = this.nextTs();
    const msg: MsgRec = {
      ...fields,
      teamId: team.id,
      channel: conv.id,
      ts,
      reactions: [],
      micros,
      deleted: false,
      replies: [],
    };
    if (msg.thread_ts !== undefined) {
      const parent = this.message(team.id, conv.id, msg.thread_ts);
      if (parent && parent.thread_ts === undefined) {
        msg.parent = parent;
        parent.replies.push(msg);
      }
    }
    conv.messages.push(msg);
    this.#allMessages.push(msg);
    this.#messagesByKey.set(`${team.id}:${conv.id}:${ts}`, msg);
    let inChannel = this.#messagesByChannel.get(conv.id);
    if (!inChannel) {
      inChannel = [];
      this.#messagesByChannel.set(conv.id, inChannel);
    }
    inChannel.push(msg);
    return msg;
  }

  message(teamId: string, channel: string, ts: string): MsgRec | undefined {
    const msg = this.#messagesByKey.get(`${teamId}:${channel}:${ts}`);
    return msg && !msg.deleted ? msg : undefined;
  }

  /** Snapshots without the internal links, so tests can compare them with toEqual and print them. */
  messagesIn(channel: string | undefined): FakeMessage[] {
    const list = channel === undefined ? this.#allMessages : (this.#messagesByChannel.get(channel) ?? []);
    // People's messages (postAsUser) have no bot_id: this lists what the bot posted.
    return list.filter((m) => !m.deleted && m.bot_id !== "").map(snapshot);
  }

  storeView(view: FakeView): void {
    this.views.set(view.id, view);
    if (view.external_id) this.viewsByExternalId.set(`${view.teamId}:${view.external_id}`, view);
  }
}
