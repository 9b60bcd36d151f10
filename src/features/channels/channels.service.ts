import type { Deps } from "../../deps.ts";
import { upstreamFailed } from "../../http/errors.ts";

export interface ChannelView {
  id: string;
  name: string;
}

/** What conversations.info says about a channel, as far as using it as a reference needs. */
export interface ChannelInfo {
  id: string;
  name: string;
  isPrivate: boolean;
  isArchived: boolean;
  /** An IM or a group DM (MPIM ids start with G, as legacy private channels do). */
  isDirect: boolean;
  /** The app's bot user is in it. */
  isMember: boolean;
}

const CACHE_MS = 60_000;
/** After a failed or late names lookup, how long views that only decorate with names skip Slack. */
const NAMES_RETRY_MS = 30_000;
/** Channel answers one instance keeps at most. */
export const MAX_CACHED_INFOS = 5_000;

interface Entry<T> {
  at: number;
  value: T;
}

/**
 * Per-workspace cache of what Slack says about channels: the public channel list (the picker and the default
 * standup names ask often; Slack's list is paged and rate limited), the members of a channel (participant
 * counts) and single channels (reference checks). A minute old at most; it only saves calls, nothing depends
 * on it for correctness.
 */
export class ChannelDirectory {
  readonly #lists = new Map<string, Entry<ChannelView[]>>();
  /** A channel Slack would not list (deleted, private without the bot) is remembered as such, not asked again. */
  readonly #members = new Map<string, Entry<string[] | { failed: unknown }>>();
  /**
   * Only channels the app is in (and not archived): anything else is asked again, so inviting the app,
   * unarchiving or granting a scope applies at once.
   */
  readonly #infos = new Map<string, Entry<ChannelInfo>>();

  /**
   * When a names lookup last failed or came late, per workspace. The channel picker asks Slack every time (and
   * says when it failed); views that only name standups after their channel (lists, reports, MCP tools) show ids
   * instead for a while rather than each waiting out the same outage.
   */
  readonly #namesFailedAt = new Map<string, number>();

  constructor(private readonly deps: Pick<Deps, "chat" | "clock">) {}

  /**
   * The workspace's public channels if Slack answers within `waitMs`, else undefined at once while a failure is
   * under NAMES_RETRY_MS old. A late answer still lands in the cache and is used from then on.
   */
  async listOrNothing(teamId: string, waitMs: number): Promise<ChannelView[] | undefined> {
    const hit = this.#fresh(this.#lists, teamId);
    if (hit) return hit;
    const now = this.deps.clock.now().getTime();
    const failedAt = this.#namesFailedAt.get(teamId);
    if (failedAt !== undefined && now >= failedAt && now - failedAt < NAMES_RETRY_MS) return undefined;
    const list = await withinDeadline(this.list(teamId), waitMs);
    if (list) this.#namesFailedAt.delete(teamId);
    else this.#namesFailedAt.set(teamId, now);
    return list;
  }

  #fresh<T>(cache: Map<string, Entry<T>>, key: string): T | undefined {
    const now = this.deps.clock.now().getTime();
    const hit = cache.get(key);
    return hit && now - hit.at < CACHE_MS && now >= hit.at ? hit.value : undefined;
  }

  async list(teamId: string): Promise<ChannelView[]> {
    const hit = this.#fresh(this.#lists, teamId);
    if (hit) return hit;
    const at = this.deps.clock.now().getTime();
    const client = await this.deps.chat.forTeam(teamId, "read");
    const channels: ChannelView[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.conversations.list({
          types: "public_channel",
          exclude_archived: true,
          limit: 200,
          ...(cursor ? { cursor } : {}),
        });
        for (const c of page.channels ?? []) {
          if (c.id && c.name && !c.is_archived && !c.is_private) channels.push({ id: c.id, name: c.name });
        }
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
    } catch {
      throw upstreamFailed("Could not reach Slack to list channels");
    }
    channels.sort((a, b) => a.name.localeCompare(b.name));
    this.#lists.set(teamId, { at, value: channels });
    return channels;
  }

  /** The channel's members as Slack lists them (people, bots and apps alike), as the standup fan-out reads them. */
  async members(teamId: string, channelId: string): Promise<string[]> {
    const key = `${teamId}|${channelId}`;
    const hit = this.#fresh(this.#members, key);
    if (hit) {
      if ("failed" in hit) throw hit.failed;
      return hit;
    }
    const at = this.deps.clock.now().getTime();
    const client = await this.deps.chat.forTeam(teamId, "read");
    const ids: string[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.conversations.members({
          channel: channelId,
          limit: 500,
          ...(cursor ? { cursor } : {}),
        });
        ids.push(...(page.members ?? []));
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
    } catch (err) {
      this.#members.set(key, { at, value: { failed: err } });
      throw err;
    }
    this.#members.set(key, { at, value: ids });
    return ids;
  }

  /**
   * conversations.info with the workspace's own token. Slack's refusals are thrown as they come: another
   * workspace's channel, and a private one the app is not in, are both `channel_not_found`.
   */
  async info(teamId: string, channelId: string): Promise<ChannelInfo> {
    const key = `${teamId}|${channelId}`;
    const hit = this.#fresh(this.#infos, key);
    if (hit) return hit;
    const at = this.deps.clock.now().getTime();
    const client = await this.deps.chat.forTeam(teamId, "read");
    const { channel } = await client.conversations.info({ channel: channelId });
    return this.#remember(key, at, toInfo(channelId, channel));
  }

  /**
   * conversations.join: the app's bot joins a public channel (Slack answers ok, with a warning, when it is in
   * already). Joining twice changes nothing, so the read client's bounded retry is safe here.
   */
  async join(teamId: string, channelId: string): Promise<ChannelInfo> {
    const at = this.deps.clock.now().getTime();
    const client = await this.deps.chat.forTeam(teamId, "read");
    const { channel } = await client.conversations.join({ channel: channelId });
    return this.#remember(`${teamId}|${channelId}`, at, { ...toInfo(channelId, channel), isMember: true });
  }

  #remember(key: string, at: number, info: ChannelInfo): ChannelInfo {
    if (info.isMember && !info.isArchived && !info.isDirect) {
      this.#infos.delete(key);
      // Oldest first in insertion order: past the cap, forget the oldest answers (a cache only saves calls).
      for (const oldest of this.#infos.keys()) {
        if (this.#infos.size < MAX_CACHED_INFOS) break;
        this.#infos.delete(oldest);
      }
      this.#infos.set(key, { at, value: info });
    } else this.#infos.delete(key);
    return info;
  }
}

type SlackChannel = {
  id?: string;
  name?: string;
  is_private?: boolean;
  is_archived?: boolean;
  is_im?: boolean;
  is_mpim?: boolean;
  is_member?: boolean;
};

function toInfo(channelId: string, c: SlackChannel | undefined): ChannelInfo {
  return {
    id: c?.id ?? channelId,
    name: c?.name ?? "",
    isPrivate: c?.is_private === true,
    isArchived: c?.is_archived === true,
    isDirect: c?.is_im === true || c?.is_mpim === true,
    isMember: c?.is_member === true,
  };
}

const directories = new WeakMap<object, ChannelDirectory>();

/** One directory per running app (keyed by its chat clients), so every caller shares one cache. */
export function channelDirectory(deps: Pick<Deps, "chat" | "clock">): ChannelDirectory {
  let found = directories.get(deps.chat);
  if (!found) {
    found = new ChannelDirectory(deps);
    directories.set(deps.chat, found);
  }
  return found;
}

/**
 * What `lookup` answers within `ms`, or undefined when it fails or is slower: pages that show Slack's data
 * beside their own (default names, participant counts) fall back instead of waiting out a rate limit. A slow
 * lookup still finishes in the background and fills the cache for the next request.
 */
export async function withinDeadline<T>(lookup: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  try {
    return await Promise.race([lookup.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
