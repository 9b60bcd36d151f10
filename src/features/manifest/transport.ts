import ipaddr from "ipaddr.js";
import type { z } from "zod";
import type { slackTransport } from "../../contract/index.ts";

export type SlackTransport = z.output<typeof slackTransport>;

/**
 * Host-name endings that never resolve on the public internet: RFC 6761/6762 special-use names, RFC 8375's home
 * network, and the suffixes intranets commonly use. Slack cannot deliver to any of them.
 */
const PRIVATE_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "intranet",
  "lan",
  "home",
  "home.arpa",
  "corp",
  "private",
  "test",
  "example",
  "invalid",
];

/**
 * Whether Slack could send HTTP requests to `appUrl`: https, and a host on the public internet (a public IP
 * address, or a dotted name outside the private suffixes). A single-label name (`http://standups`) is an intranet
 * name. The name is not resolved: this is a suggestion for the setup page, not a security check.
 */
export function isPublicHttpsUrl(appUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    return false;
  }
  if (url.protocol !== "https:") return false;
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
  if (ipaddr.isValid(host)) {
    const addr = ipaddr.process(host);
    return addr.range() === "unicast";
  }
  if (!host.includes(".")) return false;
  return !PRIVATE_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`));
}

/**
 * The transport this instance should use: Socket Mode once an app-level token is configured, or when Slack could
 * not reach APP_URL over HTTP; otherwise HTTP request URLs.
 */
export function suggestedTransport(config: { appUrl: string; chatAppToken: string | undefined }): SlackTransport {
  return config.chatAppToken !== undefined || !isPublicHttpsUrl(config.appUrl) ? "socket" : "http";
}
