import type { WebClient } from "@slack/web-api";
import type { SlackPerson } from "./members.repo.ts";

/** The user object shape Slack sends in users.list, users.info, team_join and user_change. */
export interface SlackUser {
  id?: string;
  team_id?: string;
  deleted?: boolean;
  is_bot?: boolean;
  is_app_user?: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  real_name?: string;
  name?: string;
  tz?: string;
  profile?: { real_name?: string; display_name?: string; email?: string; image_72?: string };
}

/** Slackbot is not flagged as a bot by Slack, so it is excluded by id. */
export function isPerson(u: SlackUser): boolean {
  return Boolean(u.id) && u.id !== "USLACKBOT" && !u.is_bot && !u.is_app_user;
}

export function toPerson(u: SlackUser): SlackPerson {
  return {
    userId: u.id!,
    realName: u.profile?.real_name || u.real_name || u.name || "",
    displayName: u.profile?.display_name || u.name || "",
    avatarUrl: avatarUrl(u.profile?.image_72),
    email: u.profile?.email ?? "",
    tz: u.tz || "UTC",
    active: !u.deleted,
    slackAdmin: Boolean(u.is_admin || u.is_owner),
  };
}

/**
 * Only an https picture address is kept (or, for the local fake Slack, http on 127.0.0.1): the dashboard puts it in
 * an <img>, and its CSP allows Slack's picture hosts and the loopback fake only.
 */
function avatarUrl(value: string | undefined): string {
  if (!value || value.length > 1000) return "";
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && url.hostname === "127.0.0.1") ? value : "";
  } catch {
    return "";
  }
}

/** Every person of the workspace, following users.list cursors. */
export async function* listSlackPeople(client: WebClient, pageSize = 200): AsyncGenerator<SlackPerson[]> {
  let cursor: string | undefined;
  do {
    const page = await client.users.list({ limit: pageSize, ...(cursor ? { cursor } : {}) });
    yield ((page.members ?? []) as SlackUser[]).filter(isPerson).map(toPerson);
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor);
}
