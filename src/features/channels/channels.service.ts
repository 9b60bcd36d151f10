import type { Deps } from "../../deps.ts";
import { upstreamFailed } from "../../http/errors.ts";

export interface ChannelView {
  id: string;
  name: string;
}

const CACHE_MS = 60_000;

/** Per-workspace cache of the channel list: the picker asks often, Slack's list is paged and rate limited. */
export class ChannelDirectory {
  readonly #cache = new Map<string, { at: number; channels: ChannelView[] }>();

  constructor(private readonly deps: Pick<Deps, "chat" | "clock">) {}

  async list(teamId: string): Promise<ChannelView[]> {
    const now = this.deps.clock.now().getTime();
    const hit = this.#cache.get(teamId);
    if (hit && now - hit.at < CACHE_MS && now >= hit.at) return hit.channels;
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
    this.#cache.set(teamId, { at: now, channels });
    return channels;
  }
}
