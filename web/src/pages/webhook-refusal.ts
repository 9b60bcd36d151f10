import { ApiError } from "../lib/api.ts";
import type { WebhookUrlRefusal } from "../lib/types.ts";

const ONLY_PUBLIC = "Upbeat only sends webhooks to public addresses.";
const ALLOW_PRIVATE = "For a receiver inside your network, set WEBHOOK_ALLOW_PRIVATE=true on the server.";

/** Each refusal in plain words with the way forward; `host` is the host as the server read it. */
const WORDS: Record<WebhookUrlRefusal, (host: string, port: string) => string> = {
  loopback: (host) => `${ONLY_PUBLIC} This one is on this machine (${host}). ${ALLOW_PRIVATE}`,
  private: (host) => `${ONLY_PUBLIC} This one is in a private network (${host}). ${ALLOW_PRIVATE}`,
  link_local: (host) =>
    `${ONLY_PUBLIC} ${host} is a link-local address, where cloud servers keep their metadata service, so Upbeat never sends there, whatever the settings. Use the receiver's public address, or its address in your private network.`,
  metadata: (host) =>
    `${host} is a cloud metadata service: Upbeat never sends webhooks there. Use the address of your receiver.`,
  special: (host) =>
    `${host} is a special-purpose address that no receiver can have. Check the URL: use your receiver's public domain name or address.`,
  single_label_name: (host) =>
    `${host} is not a public domain name. Use the receiver's full public name, such as hooks.example.com. ${ALLOW_PRIVATE}`,
  internal_name: (host) => `${ONLY_PUBLIC} ${host} is a name known only inside a network. ${ALLOW_PRIVATE}`,
  resolves_non_public: (host) =>
    `${ONLY_PUBLIC} ${host} points to an address inside a network. If the receiver is inside your network, set WEBHOOK_ALLOW_PRIVATE=true on the server.`,
  does_not_resolve: (host) =>
    `${host} could not be found: no address is published for it. Check the spelling, or try again once its DNS record exists.`,
  not_https: () =>
    "The address must start with https://: deliveries carry your team's answers, so Upbeat sends them only encrypted.",
  invalid_url: () => "That is not a complete web address. Paste the receiver's whole URL, starting with https://.",
  credentials: () =>
    "Leave the user name and password (user:pass@) out of the address. To check that a delivery comes from Upbeat, the receiver uses the signing secret shown once you add the endpoint.",
  fragment: () => "Leave out the part from # on: it never reaches the receiver.",
  port: (_host, port) =>
    `Port ${port} belongs to another kind of service. Leave the port out (443) or use one from 1024 to 65535.`,
  too_long: () => "The address is longer than 2,000 characters. Use a shorter URL for the receiver.",
};

/** The plain-words message for a refused endpoint URL, or undefined when the error is not one. */
export function explainRefusal(err: unknown, typed: string): string | undefined {
  if (!(err instanceof ApiError) || err.status !== 400) return undefined;
  const refusal = (err.body as { refusal?: unknown } | undefined)?.refusal;
  if (typeof refusal !== "string" || !(refusal in WORDS)) return undefined;
  // The server's message names the host as it read it (127.0.0.1 for 2130706433); else the URL as typed.
  const named = /^url host (\S+?):? /.exec(err.message)?.[1];
  let host = named ?? "";
  let port = /^url port (\d+) /.exec(err.message)?.[1] ?? "";
  try {
    const url = new URL(typed);
    host ||= url.hostname;
    port ||= url.port;
  } catch {
    host ||= typed;
  }
  return WORDS[refusal as WebhookUrlRefusal](host, port);
}
