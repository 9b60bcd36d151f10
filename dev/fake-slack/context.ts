/** What every method handler gets, plus argument coercion, paging and Slack's object shapes. */
import type { ParsedRequest } from "./http.ts";
import type { ConvKind, ConvRec, MsgRec, Store, TeamRec, TokenRec } from "./store.ts";
import type { Args } from "./types.ts";

/** Thrown by handlers; becomes `{ ok: false, error, ...extra }` and leaves state untouched. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
  }
}

export type Result = Record<string, unknown>;

export interface Ctx {
  store: Store;
  args: Args;
  request: ParsedRequest;
  /** Absent only for tokenless methods. */
  auth: TokenRec;
  team: TeamRec;
  /** A tokenless handler sets this so the recorded call names the team it touched. */
  teamIdOut?: string;
}

export interface MethodSpec {
  tokenless?: boolean;
  run: (ctx: Ctx) => Result;
}

/** Slack accepts a call when the token holds any one of the scopes the method lists. */
export function need(ctx: Ctx, ...anyOf: string[]): void {
  if (anyOf.some((s) => ctx.auth.scopes.includes(s))) return;
  throw new ApiError("missing_scope", { needed: anyOf.join(","), provided: ctx.auth.scopes.join(",") });
}

export function str(args: Args, key: string): string | undefined {
  const v = args[key];
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return undefined;
}

export function requireStr(args: Args, key: string, error: string): string {
  const v = str(args, key);
  if (v === undefined || v === "") throw new ApiError(error);
  return v;
}

export function flag(args: Args, key: string): boolean {
  const v = args[key];
  return v === true || v === 1 || v === "true" || v === "1";
}

export function int(args: Args, key: string): number | undefined {
  const v = str(args, key);
  if (v === undefined || v === "") return undefined;
  const n = Number.parseInt(v, 10);
  if (Number.isNaN(n) || n < 0) throw new ApiError("invalid_limit");
  return n;
}

/** limit 0 or absent means the method's default; Slack caps pages at 1000. */
export function pageLimit(args: Args, fallback: number): number {
  const n = int(args, "limit");
  return Math.min(n === undefined || n === 0 ? fallback : n, 1000);
}

export function encodeCursor(kind: string, value: string | number): string {
  return Buffer.from(`${kind}:${value}`).toString("base64");
}

export function decodeCursor(args: Args, kind: string): string | undefined {
  const cursor = str(args, "cursor");
  if (cursor === undefined || cursor === "") return undefined;
  const decoded = Buffer.from(cursor, "base64").toString("utf8");
  if (!decoded.startsWith(`${kind}:`)) throw new ApiError("invalid_cursor");
  return decoded.slice(kind.length + 1);
}

/**
 * Offset paging over an append-only list. The cursor points at the next match, found by
 * scanning ahead, so the last page says next_cursor "" instead of leading to an empty page.
 */
export function page<T, R>(
  items: readonly T[],
  args: Args,
  kind: string,
  fallbackLimit: number,
  keep: (item: T) => boolean,
  shape: (item: T) => R,
): { out: R[]; next_cursor: string } {
  const start = Number(decodeCursor(args, kind) ?? 0);
  if (!Number.isInteger(start) || start < 0) throw new ApiError("invalid_cursor");
  const limit = pageLimit(args, fallbackLimit);
  const out: R[] = [];
  let i = start;
  for (; i < items.length && out.length < limit; i++) {
    const item = items[i] as T;
    if (keep(item)) out.push(shape(item));
  }
  while (i < items.length && !keep(items[i] as T)) i++;
  return { out, next_cursor: i < items.length ? encodeCursor(kind, i) : "" };
}

export const READ_SCOPE: Record<ConvKind, string> = {
  public: "channels:read",
  private: "groups:read",
  im: "im:read",
  mpim: "mpim:read",
};

export const HISTORY_SCOPE: Record<ConvKind, string> = {
  public: "channels:history",
  private: "groups:history",
  im: "im:history",
  mpim: "mpim:history",
};

/** A conversation the bot can see: Slack hides private ones it is not in, and other teams' ones. */
export function visibleConv(ctx: Ctx, id: string | undefined): ConvRec {
  const conv = id ? ctx.team.convIndex.get(id) : undefined;
  if (!conv || (conv.kind !== "public" && !conv.memberSet.has(ctx.team.botUserId))) {
    throw new ApiError("channel_not_found");
  }
  return conv;
}

export function convJson(ctx: Ctx, conv: ConvRec, withNumMembers: boolean): Result {
  const common = {
    id: conv.id,
    created: conv.created,
    is_archived: conv.isArchived,
    is_org_shared: false,
    context_team_id: conv.teamId,
    updated: conv.created * 1000,
  };
  if (conv.kind === "im") {
    const other = conv.user ? ctx.store.user(ctx.team, conv.user) : undefined;
    return { ...common, is_im: true, user: conv.user, is_user_deleted: other?.deleted ?? false, priority: 0 };
  }
  const out: Result = {
    ...common,
    name: conv.name,
    is_channel: conv.kind !== "mpim",
    is_group: conv.kind === "mpim",
    is_im: false,
    is_mpim: conv.kind === "mpim",
    is_private: conv.kind !== "public",
    is_general: conv.name === "general",
    unlinked: 0,
    name_normalized: conv.name,
    is_shared: false,
    is_ext_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    parent_conversation: null,
    creator: "",
    shared_team_ids: [conv.teamId],
    is_member: conv.memberSet.has(ctx.team.botUserId),
    topic: { value: conv.topic, creator: "", last_set: 0 },
    purpose: { value: conv.purpose, creator: "", last_set: 0 },
    previous_names: [],
  };
  if (withNumMembers) out.num_members = conv.members.length;
  return out;
}

export function messageJson(ctx: Ctx, msg: MsgRec, withMetadata: boolean): Result {
  const out: Result = { user: msg.user, type: "message", ts: msg.ts, text: msg.text, team: msg.teamId };
  // People's messages (postAsUser) carry no bot fields.
  if (msg.bot_id) {
    Object.assign(out, {
      bot_id: msg.bot_id,
      app_id: ctx.store.appId,
      bot_profile: {
        id: msg.bot_id,
        app_id: ctx.store.appId,
        name: ctx.team.botName,
        icons: { image_72: ctx.store.avatarUrl(msg.bot_id) },
        deleted: false,
        team_id: msg.teamId,
      },
    });
  }
  if (msg.blocks) out.blocks = msg.blocks;
  if (msg.attachments) out.attachments = msg.attachments;
  if (msg.metadata && withMetadata) out.metadata = msg.metadata;
  if (msg.edited) out.edited = msg.edited;
  if (msg.reactions.length > 0) out.reactions = msg.reactions;
  if (msg.thread_ts !== undefined) {
    out.thread_ts = msg.thread_ts;
    if (msg.parent) out.parent_user_id = msg.parent.user;
    if (msg.reply_broadcast) out.subtype = "thread_broadcast";
  }
  const replies = msg.replies.filter((r) => !r.deleted);
  if (replies.length > 0) {
    const users = [...new Set(replies.map((r) => r.user))];
    Object.assign(out, {
      thread_ts: msg.ts,
      reply_count: replies.length,
      reply_users_count: users.length,
      latest_reply: replies[replies.length - 1]?.ts,
      reply_users: users,
      is_locked: false,
      subscribed: false,
    });
  }
  return out;
}
