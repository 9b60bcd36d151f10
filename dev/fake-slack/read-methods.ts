/** Methods that only read workspace state. */
import {
  ApiError,
  type Ctx,
  convJson,
  decodeCursor,
  encodeCursor,
  flag,
  HISTORY_SCOPE,
  type MethodSpec,
  messageJson,
  need,
  page,
  pageLimit,
  READ_SCOPE,
  type Result,
  requireStr,
  str,
  visibleConv,
} from "./context.ts";
import { type ConvKind, type ConvRec, type MsgRec, tsToMicros, type UserRec } from "./store.ts";

const TYPE_TO_KIND: Record<string, ConvKind> = {
  public_channel: "public",
  private_channel: "private",
  im: "im",
  mpim: "mpim",
};

/** Slack leaves email out unless the token has users:read.email. */
function userJson(ctx: Ctx, user: UserRec): Result {
  if (user.email === undefined || ctx.auth.scopes.includes("users:read.email")) return user.json;
  const { email: _omit, ...profile } = user.json.profile as Result;
  return { ...user.json, profile };
}

function findUser(ctx: Ctx, id: string | undefined): UserRec {
  const user = id ? ctx.store.user(ctx.team, id) : undefined;
  if (!user) throw new ApiError("user_not_found");
  return user;
}

/** Slack refuses history of a public channel the bot was not invited to. */
function readableConv(ctx: Ctx): ConvRec {
  const conv = visibleConv(ctx, str(ctx.args, "channel"));
  need(ctx, HISTORY_SCOPE[conv.kind]);
  if (conv.kind === "public" && !conv.memberSet.has(ctx.team.botUserId)) throw new ApiError("not_in_channel");
  return conv;
}

/** Index of the first message with micros > bound (messages ascend by ts). */
function upperBound(messages: readonly MsgRec[], bound: number): number {
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((messages[mid] as MsgRec).micros <= bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function history(ctx: Ctx): Result {
  const conv = readableConv(ctx);
  const { args } = ctx;
  const inclusive = flag(args, "inclusive");
  const latestArg = str(args, "latest");
  const oldestArg = str(args, "oldest");
  const latest = latestArg ? tsToMicros(latestArg) - (inclusive ? 0 : 1) : Number.MAX_SAFE_INTEGER;
  const oldest = oldestArg ? tsToMicros(oldestArg) + (inclusive ? 0 : 1) : 0;
  const cursorTs = decodeCursor(args, "next_ts");
  const top = cursorTs === undefined ? latest : Math.min(latest, tsToMicros(cursorTs));
  const limit = pageLimit(args, 100);
  const withMetadata = flag(args, "include_all_metadata");
  // Threads replies stay out of history unless broadcast, as on Slack; they are read with conversations.replies.
  const visible = (m: MsgRec) => !m.deleted && m.micros >= oldest && (m.thread_ts === undefined || !!m.reply_broadcast);
  const messages: Result[] = [];
  let i = upperBound(conv.messages, top) - 1;
  for (; i >= 0 && messages.length < limit; i--) {
    const msg = conv.messages[i] as MsgRec;
    if (msg.micros < oldest) break;
    if (visible(msg)) messages.push(messageJson(ctx, msg, withMetadata));
  }
  while (i >= 0 && !visible(conv.messages[i] as MsgRec) && (conv.messages[i] as MsgRec).micros >= oldest) i--;
  const next = i >= 0 && visible(conv.messages[i] as MsgRec) ? (conv.messages[i] as MsgRec) : undefined;
  return {
    ok: true,
    messages,
    has_more: next !== undefined,
    pin_count: 0,
    channel_actions_updated: null,
    channel_actions_count: 0,
    response_metadata: { next_cursor: next ? encodeCursor("next_ts", next.ts) : "" },
  };
}

function replies(ctx: Ctx): Result {
  const conv = readableConv(ctx);
  const ts = requireStr(ctx.args, "ts", "thread_not_found");
  const msg = ctx.store.message(ctx.team.id, conv.id, ts);
  if (!msg) throw new ApiError("thread_not_found");
  const root = msg.parent ?? msg;
  const thread = [root, ...root.replies];
  const withMetadata = flag(ctx.args, "include_all_metadata");
  const { out, next_cursor } = page(
    thread,
    ctx.args,
    "replies",
    1000,
    (m) => !m.deleted,
    (m) => messageJson(ctx, m, withMetadata),
  );
  return { ok: true, messages: out, has_more: next_cursor !== "", response_metadata: { next_cursor } };
}

export const readMethods: Record<string, MethodSpec> = {
  "auth.test": {
    run: ({ team, auth, store }) => {
      const user = store.user(team, auth.userId);
      const out: Result = {
        ok: true,
        url: `https://${team.domain}.slack.com/`,
        team: team.name,
        user: user?.json.name ?? "",
        team_id: team.id,
        user_id: auth.userId,
        is_enterprise_install: false,
      };
      if (auth.kind === "bot") out.bot_id = team.botId;
      return out;
    },
  },

  /** Revokes the calling token (Slack's `auth.revoke`): later calls with it get `token_revoked`. */
  "auth.revoke": {
    run: ({ auth, args }) => {
      const test = args.test === true || args.test === "true" || args.test === "1";
      if (!test) auth.revoked = true;
      return { ok: true, revoked: !test };
    },
  },

  "team.info": {
    run: (ctx) => {
      need(ctx, "team:read");
      const asked = str(ctx.args, "team");
      if (asked && asked !== ctx.team.id) throw new ApiError("team_not_found");
      const { team, store } = ctx;
      const icon = store.avatarUrl(team.id);
      return {
        ok: true,
        team: {
          id: team.id,
          name: team.name,
          url: `https://${team.domain}.slack.com/`,
          domain: team.domain,
          email_domain: "",
          icon: { image_default: true, image_34: icon, image_44: icon, image_68: icon, image_88: icon },
          avatar_base_url: `${store.baseUrl}avatars/`,
          is_verified: false,
        },
      };
    },
  },

  "users.list": {
    run: (ctx) => {
      need(ctx, "users:read");
      // Slack's users.list has no default page size; the fake stops at its 1000 cap.
      const { out, next_cursor } = page(
        ctx.team.users,
        ctx.args,
        "user",
        1000,
        () => true,
        (u) => userJson(ctx, u),
      );
      return { ok: true, members: out, cache_ts: ctx.store.nowSeconds(), response_metadata: { next_cursor } };
    },
  },

  "users.info": {
    run: (ctx) => {
      need(ctx, "users:read");
      return { ok: true, user: userJson(ctx, findUser(ctx, str(ctx.args, "user"))) };
    },
  },

  "users.lookupByEmail": {
    run: (ctx) => {
      need(ctx, "users:read.email");
      const email = str(ctx.args, "email")?.toLowerCase() ?? "";
      const id = ctx.team.emailIndex.get(email);
      if (!id) throw new ApiError("users_not_found");
      return { ok: true, user: userJson(ctx, findUser(ctx, id)) };
    },
  },

  "conversations.list": {
    run: (ctx) => {
      const typesArg = str(ctx.args, "types") || "public_channel";
      const kinds = new Set<ConvKind>();
      for (const type of typesArg.split(",").map((t) => t.trim())) {
        const kind = TYPE_TO_KIND[type];
        if (!kind) throw new ApiError("invalid_types");
        need(ctx, READ_SCOPE[kind]);
        kinds.add(kind);
      }
      const excludeArchived = flag(ctx.args, "exclude_archived");
      const bot = ctx.team.botUserId;
      const { out, next_cursor } = page(
        ctx.team.convs,
        ctx.args,
        "channel",
        100,
        (c) => kinds.has(c.kind) && !(excludeArchived && c.isArchived) && (c.kind === "public" || c.memberSet.has(bot)),
        (c) => convJson(ctx, c, c.kind !== "im"),
      );
      return { ok: true, channels: out, response_metadata: { next_cursor } };
    },
  },

  "conversations.info": {
    run: (ctx) => {
      const conv = visibleConv(ctx, str(ctx.args, "channel"));
      need(ctx, READ_SCOPE[conv.kind]);
      return { ok: true, channel: convJson(ctx, conv, flag(ctx.args, "include_num_members")) };
    },
  },

  "conversations.members": {
    run: (ctx) => {
      const conv = visibleConv(ctx, str(ctx.args, "channel"));
      need(ctx, READ_SCOPE[conv.kind]);
      const { out, next_cursor } = page(
        conv.members,
        ctx.args,
        "member",
        100,
        () => true,
        (id) => id,
      );
      return { ok: true, members: out, response_metadata: { next_cursor } };
    },
  },

  "conversations.history": { run: history },
  "conversations.replies": { run: replies },
};
