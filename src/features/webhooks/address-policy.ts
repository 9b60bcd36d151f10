import ipaddr from "ipaddr.js";
import type { WebhookUrlRefusal } from "../../contract/index.ts";
import type { Outbound, ResolvedAddress } from "../../lib/outbound.ts";

/**
 * Where webhooks may go. A customer chooses the URL, so an endpoint must never reach the service's own network
 * (SSRF): the host is checked when the endpoint is created and again, after resolving it, before every attempt.
 *
 * Addresses are classified with ipaddr.js. Odd IPv4 spellings (2130706433, 0177.0.0.1, 0x7f.1, 127.1) need no
 * parser of our own: the WHATWG URL parser (`new URL`) already turns them into dotted quads, and IPv6 hosts into
 * their canonical form, before anything here looks at them.
 */

export const MAX_URL_LENGTH = 2000;
/** How long creating an endpoint waits for its name to resolve. */
const RESOLVE_AT_CREATION_MS = 3_000;

export interface AddressPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: internal services of a self-hosted install may be targets. */
  allowPrivate: boolean;
  /** Tests only (deps.outbound): plain http:// besides https://. */
  allowPlainHttp: boolean;
}

/**
 * Why an address is refused, for the dashboard to explain (`why` words it for the API's message): "loopback" and
 * "private" are allowed by WEBHOOK_ALLOW_PRIVATE, the others never.
 */
export type AddressKind = Extract<WebhookUrlRefusal, "loopback" | "private" | "link_local" | "metadata" | "special">;

export type Verdict = { ok: true } | { ok: false; why: string; kind: AddressKind };

/**
 * Internal unicast ranges: refused unless WEBHOOK_ALLOW_PRIVATE is on. Link-local stays refused even then (it holds
 * the cloud metadata service, 169.254.169.254, which no webhook has reason to reach); everything else special too.
 */
const INTERNAL_V4 = new Set(["private", "loopback", "carrierGradeNat"]);
const INTERNAL_V6 = new Set(["loopback", "uniqueLocal"]);

const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a shared address (100.64.0.0/10)",
  private: "a private address",
  reserved: "a reserved or documentation address",
  as112: "a reserved address (AS112)",
  amt: "a reserved address (AMT)",
  uniqueLocal: "a unique local (private) address",
  deprecatedSiteLocal: "a site-local address",
  discard: "a discard-only address",
  teredo: "a Teredo tunnel address",
  benchmarking: "a benchmarking address",
  as112v6: "a reserved address (AS112)",
  deprecatedOrchid: "an ORCHID address",
  orchid2: "an ORCHID address",
  droneRemoteIdProtocolEntityTags: "a reserved address (DRIP)",
  segmentRouting: "a segment-routing address",
};

const refuse = (why: string, kind: AddressKind = "special"): Verdict => ({ ok: false, why, kind });

const KIND_OF_RANGE: Record<string, AddressKind> = {
  loopback: "loopback",
  private: "private",
  carrierGradeNat: "private",
  uniqueLocal: "private",
  linkLocal: "link_local",
};
const refuseRange = (range: string): Verdict =>
  refuse(RANGE_WORDS[range] ?? "a special-purpose address", KIND_OF_RANGE[range] ?? "special");

/**
 * Cloud metadata services outside link-local, refused whatever WEBHOOK_ALLOW_PRIVATE says: AWS's IPv6 endpoint
 * (a unique local address) and Alibaba Cloud's (in the shared range). Link-local (169.254.169.254 of AWS, GCP,
 * Azure, …) is refused as a range.
 */
const METADATA_SERVICES = [ipaddr.parseCIDR("fd00:ec2::254/128"), ipaddr.parseCIDR("100.100.100.200/32")];

function isMetadataService(addr: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return METADATA_SERVICES.some(([net, bits]) => addr.kind() === net.kind() && addr.match(net, bits));
}

function checkV4(addr: ipaddr.IPv4, policy: Pick<AddressPolicy, "allowPrivate">): Verdict {
  const range = addr.range();
  if (range === "unicast") return { ok: true };
  if (isMetadataService(addr)) return refuse("a cloud metadata service", "metadata");
  if (policy.allowPrivate && INTERNAL_V4.has(range)) return { ok: true };
  return refuseRange(range);
}

/** The IPv4 address in the low 32 bits (mapped, translated and NAT64 forms). */
function low32(addr: ipaddr.IPv6): ipaddr.IPv4 {
  const p = addr.parts;
  return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
}

/** An IPv6 address that carries an IPv4 one is judged by the IPv4 one: a tunnel must not lead inside. */
function embedded(addr: ipaddr.IPv6, range: string): ipaddr.IPv4 | "refuse" | undefined {
  const p = addr.parts;
  if (range === "ipv4Mapped" || range === "rfc6145") return low32(addr);
  // 64:ff9b::/96 (RFC 6052) translates to the embedded IPv4 address; 64:ff9b:1::/48 (RFC 8215) is for local use.
  if (range === "rfc6052") return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? low32(addr) : "refuse";
  // 2002:AABB:CCDD::/48 (6to4) reaches AA.BB.CC.DD.
  if (range === "6to4") return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
  return undefined;
}

function checkV6(addr: ipaddr.IPv6, policy: Pick<AddressPolicy, "allowPrivate">): Verdict {
  const range = addr.range();
  const inner = embedded(addr, range);
  if (inner === "refuse") return refuse("a local-use NAT64 address");
  if (inner) {
    const v = checkV4(inner, policy);
    return v.ok ? v : refuse(`an IPv6 form of ${inner.toString()}, ${v.why}`, v.kind);
  }
  if (range === "unicast") {
    // Outside 2000::/3 nothing is global unicast: the rest is unassigned or special (::a.b.c.d among them).
    return (addr.parts[0]! & 0xe000) === 0x2000 ? { ok: true } : refuse("an unassigned or reserved IPv6 address");
  }
  if (isMetadataService(addr)) return refuse("a cloud metadata service", "metadata");
  if (policy.allowPrivate && INTERNAL_V6.has(range)) return { ok: true };
  return refuseRange(range);
}

/** Whether a literal address (as DNS or the URL parser gives it) may be reached. */
export function checkAddress(address: string, policy: Pick<AddressPolicy, "allowPrivate">): Verdict {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(address);
  } catch {
    return refuse("not an IP address");
  }
  return addr.kind() === "ipv4" ? checkV4(addr as ipaddr.IPv4, policy) : checkV6(addr as ipaddr.IPv6, policy);
}

/**
 * Names that only mean something inside a network: RFC 6761/6762/8375 special-use names, ICANN's private-use
 * `.internal`, and the never-delegated suffixes routers and companies use (`.lan`, `.corp`, `.home`, …).
 */
const INTERNAL_SUFFIXES = [
  "localhost",
  "local",
  "internal",
  "localdomain",
  "home.arpa",
  "lan",
  "intranet",
  "corp",
  "home",
  "private",
];

export type Target = { kind: "address"; address: string; family: 4 | 6 } | { kind: "name"; name: string };

/** Why a URL is refused: the `refusal` beside the API's message, for the dashboard to explain. */
export type UrlRefusal = WebhookUrlRefusal;

export type UrlCheck = { ok: true; url: URL; target: Target } | { ok: false; error: string; refusal: UrlRefusal };

const ONLY_PUBLIC = "webhooks go only to public addresses";

/** Everything about a URL that can be judged without the network: scheme, credentials, the host's shape. */
export function checkUrl(raw: string, policy: AddressPolicy): UrlCheck {
  const fail = (error: string, refusal: UrlRefusal): UrlCheck => ({ ok: false, error, refusal });
  if (raw.length > MAX_URL_LENGTH) return fail(`url must be at most ${MAX_URL_LENGTH} characters`, "too_long");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail("url must be an absolute https:// URL", "invalid_url");
  }
  const schemes = policy.allowPlainHttp ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return fail("url must start with https://", "not_https");
  if (url.username || url.password)
    return fail("url must not contain a user name or password (user:pass@)", "credentials");
  if (url.hash) return fail("url must not contain a #fragment", "fragment");
  // Well-known ports other than the web's are other protocols' (SSH, SMTP, …): no webhook has reason to knock there.
  const webPorts = policy.allowPlainHttp ? ["", "443", "80"] : ["", "443"];
  if (!webPorts.includes(url.port) && Number(url.port) < 1024)
    return fail(`url port ${url.port} is not allowed: use 443 (the default) or a port from 1024 to 65535`, "port");
  const host = url.hostname;
  if (host.startsWith("[")) {
    const address = host.slice(1, -1);
    const v = checkAddress(address, policy);
    return v.ok
      ? { ok: true, url, target: { kind: "address", address, family: 6 } }
      : fail(`url host ${host} is ${v.why}: ${ONLY_PUBLIC}`, v.kind);
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) {
    const v = checkAddress(host, policy);
    return v.ok
      ? { ok: true, url, target: { kind: "address", address: host, family: 4 } }
      : fail(`url host ${host} is ${v.why}: ${ONLY_PUBLIC}`, v.kind);
  }
  const name = host.replace(/\.$/, "");
  // Internal services of a self-hosted install often go by such names (a Docker service, `n8n.internal`).
  if (!policy.allowPrivate) {
    if (!name.includes("."))
      return fail(
        `url host ${host || "(empty)"} must be a public domain name such as hooks.example.com`,
        "single_label_name",
      );
    const suffix = INTERNAL_SUFFIXES.find((s) => name.endsWith(`.${s}`));
    if (suffix) return fail(`url host ${host} is an internal name (.${suffix}): ${ONLY_PUBLIC}`, "internal_name");
  }
  return { ok: true, url, target: { kind: "name", name } };
}

/** `refused`: the name resolved, but to an address that may not be reached (not a DNS failure). */
export type Resolution = { ok: true; addresses: ResolvedAddress[] } | { ok: false; error: string; refused: boolean };

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * Resolves the target and checks every address it has now: one address inside is enough to refuse, since the
 * connection could go to any of them. The addresses returned are the ones to connect to (no second lookup).
 */
export async function resolveTarget(
  target: Target,
  outbound: Pick<Outbound, "resolve">,
  policy: Pick<AddressPolicy, "allowPrivate">,
  deadlineMs: number = RESOLVE_AT_CREATION_MS,
): Promise<Resolution> {
  if (target.kind === "address") return { ok: true, addresses: [{ address: target.address, family: target.family }] };
  let found: ResolvedAddress[] | "timeout";
  try {
    found = await withDeadline(outbound.resolve(target.name), deadlineMs);
  } catch (err) {
    const code = (err as { code?: string }).code;
    return {
      ok: false,
      refused: false,
      error:
        code === "ENOTFOUND" || code === "ENODATA"
          ? `${target.name} does not resolve`
          : `${target.name} could not be resolved (${code ?? "lookup failed"})`,
    };
  }
  if (found === "timeout") return { ok: false, refused: false, error: `${target.name} did not resolve in time` };
  if (found.length === 0) return { ok: false, refused: false, error: `${target.name} does not resolve` };
  for (const a of found) {
    const v = checkAddress(a.address, policy);
    // Neither the address nor its kind is named: the answer must not map the network the service sits in.
    if (!v.ok)
      return { ok: false, refused: true, error: `${target.name} resolves to a non-public address: ${ONLY_PUBLIC}` };
  }
  return { ok: true, addresses: found };
}
