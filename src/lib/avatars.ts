/**
 * Where people's pictures may come from. The dashboard's CSP allows images from these hosts only, and the people
 * API hands out only pictures the CSP will load, so no page logs a refused image.
 */
export const AVATAR_HOSTS = [
  "avatars.slack-edge.com",
  "ca.slack-edge.com",
  "a.slack-edge.com",
  "secure.gravatar.com",
] as const;

/**
 * The picture to show, or null: https on one of the hosts above; with `loopback` (tests and the demo, whose fake
 * Slack serves pictures over plain http), also http on 127.0.0.1.
 */
export function shownAvatar(url: string, loopback: boolean): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.protocol === "https:" && (AVATAR_HOSTS as readonly string[]).includes(u.hostname)) return url;
    if (loopback && u.protocol === "http:" && u.hostname === "127.0.0.1") return url;
  } catch {
    // Not an address: no picture.
  }
  return null;
}
