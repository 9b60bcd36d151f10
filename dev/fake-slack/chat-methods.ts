/** Messaging methods that change state. Each validates everything before its first mutation, so errors leave no trace. */
import { blocksTooLong, messageViolations } from "./block-kit-limits.ts";
import {
  ApiError,
  type Ctx,
  convJson,
  flag,
  type MethodSpec,
  messageJson,
  need,
  type Result,
  requireStr,
  str,
  visibleConv,
} from "./context.ts";
import type { ConvRec } from "./store.ts";
import type { FakeMessage } from "./types.ts";

interface Content {
  text?: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: FakeMessage["metadata"];
}

function jsonList(ctx: Ctx, key: string, formatError: string, max: number, itemError: string): unknown[] | undefined {
  const value = ctx.args[key];
  if (value === undefined || value === "") return undefined;
  if (!Array.isArray(value)) throw new ApiError(formatError);
  if (value.length > max) throw new ApiError(itemError);
  return value;
}

/**
 * Slack's message limits: 50 blocks, 40k characters of text, every Block Kit limit (block-kit-limits.ts), metadata
 * with event_type and event_payload.
 */
function content(ctx: Ctx): Content {
  const text = str(ctx.args, "text");
  if (text !== undefined && text.length > 40_000) throw new ApiError("msg_too_long");
  const blocks = jsonList(ctx, "blocks", "invalid_blocks_format", 50, "invalid_blocks");
  if (blocks?.some((b) => !b || typeof (b as Result).type !== "string")) throw new ApiError("invalid_blocks");
  const violations = messageViolations({ blocks });
  if (violations.length > 0) {
    throw new ApiError("invalid_blocks", {
      errors: violations,
      response_metadata: { messages: violations.map((v) => `[ERROR] ${v}`) },
    });
  }
  if (blocksTooLong(blocks)) throw new ApiError("msg_blocks_too_long");
  const attachments = jsonList(ctx, "attachments", "invalid_attachments", 100, "too_many_attachments");
  const rawMeta = ctx.args.metadata;
  let metadata: Content["metadata"];
  if (rawMeta !== undefined && rawMeta !== "") {
    if (typeof rawMeta !== "object" || rawMeta === null) throw new ApiError("invalid_metadata_format");
    const m = rawMeta as Result;
    if (typeof m.event_type !== "string" || typeof m.event_payload !== "object" || m.event_payload === null) {
      throw new ApiError("invalid_metadata_schema");
    }
    metadata = m as Content["metadata"];
  }
  return { text, blocks, attachments, metadata };
}

function hasBody(c: Content): boolean {
  return !!c.text || !!c.blocks?.length || !!c.attachments?.length;
}

/** chat.postMessage takes a channel id, a #name or a user id (which means the bot's DM with that user). */
function postTarget(ctx: Ctx): ConvRec {
  const arg = str(ctx.args, "channel") ?? "";
  const { team } = ctx;
  const byName = team.nameIndex.get(arg.replace(/^#/, ""));
  if (!team.convIndex.has(arg) && byName === undefined && ctx.store.user(team, arg)) {
    return ctx.store.openDm(team, arg).conv;
  }
  return visibleConv(ctx, team.convIndex.has(arg) ? arg : byName);
}

function writableConv(ctx: Ctx, conv: ConvRec): void {
  if (conv.isArchived) throw new ApiError("is_archived");
  const invited = conv.memberSet.has(ctx.team.botUserId);
  if (conv.kind === "public" && !invited && !ctx.auth.scopes.includes("chat:write.public")) {
    throw new ApiError("not_in_channel");
  }
}

function findMessage(ctx: Ctx, conv: ConvRec, tsKey: string, missing: string) {
  const ts = requireStr(ctx.args, tsKey, missing);
  const msg = ctx.store.message(ctx.team.id, conv.id, ts);
  if (!msg) throw new ApiError("message_not_found");
  return msg;
}

export const chatMethods: Record<string, MethodSpec> = {
  "chat.postMessage": {
    run: (ctx) => {
      need(ctx, "chat:write");
      const c = content(ctx);
      if (!hasBody(c)) throw new ApiError("no_text");
      const conv = postTarget(ctx);
      writableConv(ctx, conv);
      const threadTs = str(ctx.args, "thread_ts") || undefined;
      const msg = ctx.store.addMessage(ctx.team, conv, {
        text: c.text ?? "",
        user: ctx.team.botUserId,
        bot_id: ctx.team.botId,
        ...(c.blocks && { blocks: c.blocks }),
        ...(c.attachments && { attachments: c.attachments }),
        ...(c.metadata && { metadata: c.metadata }),
        ...(threadTs && { thread_ts: threadTs }),
        ...(threadTs && flag(ctx.args, "reply_broadcast") && { reply_broadcast: true }),
      });
      return { ok: true, channel: conv.id, ts: msg.ts, message: messageJson(ctx, msg, true) };
    },
  },

  "chat.update": {
    run: (ctx) => {
      need(ctx, "chat:write");
      const conv = visibleConv(ctx, str(ctx.args, "channel"));
      const msg = findMessage(ctx, conv, "ts", "message_not_found");
      const c = content(ctx);
      if (c.text === undefined && !("blocks" in ctx.args) && c.attachments === undefined) {
        throw new ApiError("no_text");
      }
      if (conv.isArchived) throw new ApiError("is_archived");
      // Omitted fields keep their old value; an empty blocks list removes the blocks, as documented for chat.update.
      if (c.text !== undefined) msg.text = c.text;
      if ("blocks" in ctx.args) {
        if (c.blocks?.length) msg.blocks = c.blocks;
        else delete msg.blocks;
      }
      if (c.attachments !== undefined) msg.attachments = c.attachments;
      if (c.metadata !== undefined) msg.metadata = c.metadata;
      msg.edited = { user: ctx.team.botUserId, ts: ctx.store.nextTs().ts };
      return { ok: true, channel: conv.id, ts: msg.ts, text: msg.text, message: messageJson(ctx, msg, true) };
    },
  },

  "chat.delete": {
    run: (ctx) => {
      need(ctx, "chat:write");
      const conv = visibleConv(ctx, str(ctx.args, "channel"));
      const msg = findMessage(ctx, conv, "ts", "message_not_found");
      msg.deleted = true;
      return { ok: true, channel: conv.id, ts: msg.ts };
    },
  },

  "chat.postEphemeral": {
    run: (ctx) => {
      need(ctx, "chat:write");
      const c = content(ctx);
      if (!hasBody(c)) throw new ApiError("no_text");
      const conv = visibleConv(ctx, str(ctx.args, "channel"));
      const user = requireStr(ctx.args, "user", "user_not_found");
      if (!ctx.store.user(ctx.team, user)) throw new ApiError("user_not_found");
      if (!conv.memberSet.has(user)) throw new ApiError("user_not_in_channel");
      if (conv.isArchived) throw new ApiError("is_archived");
      const threadTs = str(ctx.args, "thread_ts") || undefined;
      const { ts } = ctx.store.nextTs();
      ctx.store.ephemerals.push({
        teamId: ctx.team.id,
        channel: conv.id,
        user,
        ts,
        text: c.text ?? "",
        ...(c.blocks && { blocks: c.blocks }),
        ...(threadTs && { thread_ts: threadTs }),
      });
      return { ok: true, message_ts: ts };
    },
  },

  "reactions.add": {
    run: (ctx) => {
      need(ctx, "reactions:write");
      const conv = visibleConv(ctx, str(ctx.args, "channel"));
      const msg = findMessage(ctx, conv, "timestamp", "no_item_specified");
      const name = requireStr(ctx.args, "name", "invalid_name").replace(/^:|:$/g, "");
      const bot = ctx.team.botUserId;
      const existing = msg.reactions.find((r) => r.name === name);
      if (existing?.users.includes(bot)) throw new ApiError("already_reacted");
      if (existing) {
        existing.users.push(bot);
        existing.count += 1;
      } else {
        msg.reactions.push({ name, users: [bot], count: 1 });
      }
      return { ok: true };
    },
  },

  /**
   * The bot joins a public channel (channels:join). Private channels, IMs and MPIMs cannot be joined
   * (method_not_supported_for_channel_type); a channel already joined answers ok with Slack's warning.
   */
  "conversations.join": {
    run: (ctx) => {
      need(ctx, "channels:join");
      const conv = visibleConv(ctx, str(ctx.args, "channel"));
      if (conv.kind !== "public") throw new ApiError("method_not_supported_for_channel_type");
      if (conv.isArchived) throw new ApiError("is_archived");
      const bot = ctx.team.botUserId;
      const already = conv.memberSet.has(bot);
      if (!already) {
        conv.members.push(bot);
        conv.memberSet.add(bot);
      }
      const channel = convJson(ctx, conv, false);
      if (!already) return { ok: true, channel };
      return {
        ok: true,
        channel,
        warning: "already_in_channel",
        response_metadata: { warnings: ["already_in_channel"] },
      };
    },
  },

  "conversations.open": {
    run: (ctx) => {
      const { team, store } = ctx;
      const reopen = str(ctx.args, "channel");
      if (reopen) {
        const conv = visibleConv(ctx, reopen);
        if (conv.kind !== "im" && conv.kind !== "mpim") throw new ApiError("method_not_supported_for_channel_type");
        return { ok: true, no_op: true, already_open: true, channel: { id: conv.id } };
      }
      const users = (str(ctx.args, "users") ?? "")
        .split(",")
        .map((u) => u.trim())
        .filter((u) => u !== "");
      if (users.length === 0) throw new ApiError("users_list_not_supplied");
      if (users.length > 8) throw new ApiError("too_many_users");
      need(ctx, users.length === 1 ? "im:write" : "mpim:write");
      for (const id of users) {
        const user = store.user(team, id);
        if (!user) throw new ApiError("user_not_found");
        if (user.deleted) throw new ApiError("user_disabled");
        if (users.length === 1 && user.json.is_bot) throw new ApiError("cannot_dm_bot");
      }
      const { conv, existed } =
        users.length === 1 ? store.openDm(team, users[0] as string) : store.openMpim(team, users);
      const channel = flag(ctx.args, "return_im") ? convJson(ctx, conv, false) : { id: conv.id };
      return existed ? { ok: true, no_op: true, already_open: true, channel } : { ok: true, channel };
    },
  },
};
