import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import { rows } from "../../db/client.ts";
import type { ResolvedAddress } from "../../lib/outbound.ts";
import { checkAddress } from "./address-policy.ts";

const TEAM = "T0SSRF";
const ADMIN = "U0SSRFADMIN";

/** The only DNS these tests have: names an attacker might register, pointing inside. Nothing reaches the network. */
const DNS: Record<string, ResolvedAddress[]> = {
  "hooks.example.com": [{ address: "93.184.216.34", family: 4 }],
  "api.partner.example": [{ address: "2606:4700:4700::1111", family: 6 }],
  "127.0.0.1.nip.io": [{ address: "127.0.0.1", family: 4 }],
  "metadata.attacker.example": [{ address: "169.254.169.254", family: 4 }],
  "v6.attacker.example": [{ address: "::1", family: 6 }],
  "mapped.attacker.example": [{ address: "::ffff:10.0.0.8", family: 6 }],
  "mixed.attacker.example": [
    { address: "93.184.216.34", family: 4 },
    { address: "10.0.0.1", family: 4 },
  ],
};

/** Refused at creation, each with a 400 whose message says why. */
const REFUSED: [url: string, why: RegExp][] = [
  ["http://hooks.example.com/x", /url must start with https:\/\//],
  ["ftp://hooks.example.com/x", /url must start with https:\/\//],
  ["javascript:alert(1)", /url must start with https:\/\//],
  ["not a url", /url must be an absolute https:\/\/ URL/],
  ["/relative/path", /url must be an absolute https:\/\/ URL/],
  ["https://user:pass@hooks.example.com/x", /must not contain a user name or password/],
  ["https://token@hooks.example.com/x", /must not contain a user name or password/],
  ["https://hooks.example.com/x#frag", /must not contain a #fragment/],
  [`https://hooks.example.com/${"a".repeat(2000)}`, /url must be at most 2000 characters/],
  ["https://localhost/x", /url host localhost must be a public domain name/],
  ["https://intranet/x", /url host intranet must be a public domain name/],
  ["https://LOCALHOST./x", /url host localhost. must be a public domain name/],
  ["https://app.localhost/x", /internal name \(\.localhost\)/],
  ["https://printer.local/x", /internal name \(\.local\)/],
  ["https://db.internal/x", /internal name \(\.internal\)/],
  ["https://nas.home.arpa/x", /internal name \(\.home\.arpa\)/],
  ["https://router.lan/x", /internal name \(\.lan\)/],
  ["https://wiki/x", /url host wiki must be a public domain name/],
  ["https://127.0.0.1/x", /127\.0\.0\.1 is a loopback address/],
  ["https://127.0.0.1:8443/x", /127\.0\.0\.1 is a loopback address/],
  ["https://127.9.9.9/x", /loopback address/],
  ["https://2130706433/x", /127\.0\.0\.1 is a loopback address/],
  ["https://0177.0.0.1/x", /127\.0\.0\.1 is a loopback address/],
  ["https://0x7f.0.0.1/x", /127\.0\.0\.1 is a loopback address/],
  ["https://0x7f000001/x", /127\.0\.0\.1 is a loopback address/],
  ["https://017700000001/x", /127\.0\.0\.1 is a loopback address/],
  ["https://127.1/x", /127\.0\.0\.1 is a loopback address/],
  ["https://%31%32%37.0.0.1/x", /127\.0\.0\.1 is a loopback address/],
  ["https://１２７.０.０.１/x", /127\.0\.0\.1 is a loopback address/],
  ["https://10.1/x", /10\.0\.0\.1 is a private address/],
  ["https://10.0.0.5/x", /private address/],
  ["https://172.16.3.4/x", /private address/],
  ["https://172.31.255.254/x", /private address/],
  ["https://192.168.1.1/x", /private address/],
  ["https://0xc0.0xa8.1.1/x", /192\.168\.1\.1 is a private address/],
  ["https://100.64.0.1/x", /shared address/],
  ["https://169.254.169.254/latest/meta-data/", /link-local address/],
  ["https://0.0.0.0/x", /unspecified address/],
  ["https://0/x", /0\.0\.0\.0 is an unspecified address/],
  ["https://255.255.255.255/x", /broadcast address/],
  ["https://224.0.0.1/x", /multicast address/],
  ["https://240.0.0.1/x", /reserved or documentation address/],
  ["https://192.0.2.10/x", /reserved or documentation address/],
  ["https://198.51.100.7/x", /reserved or documentation address/],
  ["https://203.0.113.9/x", /reserved or documentation address/],
  ["https://198.18.0.1/x", /reserved or documentation address/],
  ["https://[::1]/x", /\[::1\] is a loopback address/],
  ["https://[::]/x", /unspecified address/],
  ["https://[::ffff:127.0.0.1]/x", /IPv6 form of 127\.0\.0\.1, a loopback address/],
  ["https://[::ffff:a00:1]/x", /IPv6 form of 10\.0\.0\.1, a private address/],
  ["https://[::ffff:169.254.169.254]/x", /IPv6 form of 169\.254\.169\.254, a link-local address/],
  ["https://[::127.0.0.1]/x", /unassigned or reserved IPv6 address/],
  ["https://[64:ff9b::7f00:1]/x", /IPv6 form of 127\.0\.0\.1, a loopback address/],
  ["https://[64:ff9b::192.168.1.1]/x", /IPv6 form of 192\.168\.1\.1, a private address/],
  ["https://[64:ff9b:1::a00:1]/x", /local-use NAT64 address/],
  ["https://[2002:7f00:1::]/x", /IPv6 form of 127\.0\.0\.1, a loopback address/],
  ["https://[2002:a9fe:a9fe::1]/x", /IPv6 form of 169\.254\.169\.254, a link-local address/],
  ["https://[2002:c0a8:101::1]/x", /IPv6 form of 192\.168\.1\.1, a private address/],
  ["https://[fc00::1]/x", /unique local \(private\) address/],
  ["https://[fd12:3456:789a::1]/x", /unique local \(private\) address/],
  ["https://[fe80::1]/x", /link-local address/],
  ["https://[fec0::1]/x", /site-local address/],
  ["https://[ff02::1]/x", /multicast address/],
  ["https://[2001:db8::1]/x", /reserved or documentation address/],
  ["https://[2001::1]/x", /Teredo tunnel address/],
  // A name's addresses are checked but never named in the answer: it must not map the service's network.
  ["https://127.0.0.1.nip.io/x", /^url host 127\.0\.0\.1\.nip\.io resolves to a non-public address: webhooks go/],
  ["https://metadata.attacker.example/x", /^url host metadata\.attacker\.example resolves to a non-public address/],
  ["https://v6.attacker.example/x", /^url host v6\.attacker\.example resolves to a non-public address/],
  ["https://mapped.attacker.example/x", /^url host mapped\.attacker\.example resolves to a non-public address/],
  ["https://mixed.attacker.example/x", /^url host mixed\.attacker\.example resolves to a non-public address/],
  ["https://hooks.example.com:22/x", /url port 22 is not allowed: use 443 \(the default\) or a port from 1024/],
  ["https://hooks.example.com:25/x", /url port 25 is not allowed/],
  ["https://hooks.example.com:80/x", /url port 80 is not allowed/],
  ["https://nowhere.example.com/x", /url host nowhere\.example\.com does not resolve/],
];

const ACCEPTED = [
  "https://hooks.example.com/upbeat",
  "https://hooks.example.com:8443/in?token=abc",
  "https://hooks.example.com:443/explicit-default-port",
  "https://hooks.example.com:1024/lowest-open-port",
  "https://api.partner.example/webhooks/upbeat",
  "https://8.8.8.8/hook",
  "https://[2606:4700:4700::1111]/hook",
  "https://[::ffff:8.8.8.8]/hook",
  "https://[64:ff9b::8.8.8.8]/hook",
];

describe("webhook addresses at creation (SSRF)", async () => {
  const resolved: string[] = [];
  const t = await useTestApp({
    outbound: {
      async resolve(hostname) {
        resolved.push(hostname);
        const found = DNS[hostname];
        if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
        return found;
      },
    },
  });
  await t.installTeam(TEAM, { installer: ADMIN });
  const admin = await t.signIn(TEAM, ADMIN);
  const create = (url: string) =>
    t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify({ url }),
    });

  it(`refuses ${REFUSED.length} addresses that are or lead inside, each with a 400 that says why`, async () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(40);
    const wrong: string[] = [];
    for (const [url, why] of REFUSED) {
      const res = await create(url);
      const error = (res.json() as { error?: string }).error ?? "";
      if (res.statusCode !== 400 || !why.test(error)) wrong.push(`${url} → ${res.statusCode} ${error}`);
    }
    expect(wrong).toEqual([]);
    // No answer names an address a host resolved to.
    for (const [url] of REFUSED.filter(([u]) => u.includes("attacker") || u.includes("nip.io"))) {
      const error = ((await create(url)).json() as { error: string }).error.replace(new URL(url).hostname, "");
      expect(error, url).not.toMatch(/10\.0\.0|127\.0|169\.254|::1|::ffff|loopback|private|link-local/);
    }
    const [stored] = await rows<{ n: number }>(
      t.deps.db,
      sql`select count(*)::int as n from webhook_endpoints where team_id = ${TEAM}`,
    );
    expect(stored!.n).toBe(0);
  });

  it("accepts public addresses, named or literal, IPv4 and IPv6, and stores them normalised", async () => {
    for (const url of ACCEPTED) {
      const res = await create(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
      expect((res.json() as { url: string }).url).toBe(new URL(url).href);
    }
  });

  it("names are resolved through the injected resolver only, literals not at all", () => {
    expect(new Set(resolved)).toEqual(
      new Set([
        "hooks.example.com",
        "api.partner.example",
        "127.0.0.1.nip.io",
        "metadata.attacker.example",
        "v6.attacker.example",
        "mapped.attacker.example",
        "mixed.attacker.example",
        "nowhere.example.com",
      ]),
    );
  });
});

describe("address classification", () => {
  const strict = { allowPrivate: false };
  const internal = { allowPrivate: true };

  it("public unicast passes, in both families and in the forms that embed a public IPv4 address", () => {
    for (const a of [
      "8.8.8.8",
      "93.184.216.34",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
    ]) {
      expect(checkAddress(a, strict), a).toEqual({ ok: true });
    }
  });

  it("WEBHOOK_ALLOW_PRIVATE lets internal unicast through, never link-local (cloud metadata), multicast, broadcast, unspecified or reserved", () => {
    for (const a of ["127.0.0.1", "10.1.2.3", "192.168.0.10", "100.64.1.1", "::1", "fd00::5", "::ffff:10.0.0.1"]) {
      expect(checkAddress(a, internal), a).toEqual({ ok: true });
      expect(checkAddress(a, strict).ok, a).toBe(false);
    }
    for (const a of [
      "169.254.169.254",
      "169.254.1.1",
      "fd00:ec2::254",
      "100.100.100.200",
      "::ffff:100.100.100.200",
      "fe80::1",
      "::ffff:169.254.169.254",
      "224.0.0.1",
      "255.255.255.255",
      "0.0.0.0",
      "240.0.0.1",
      "192.0.2.1",
      "ff02::1",
      "::",
      "2001:db8::1",
    ]) {
      expect(checkAddress(a, internal).ok, a).toBe(false);
    }
  });

  it("anything that is not an address is refused", () => {
    expect(checkAddress("localhost", strict)).toEqual({ ok: false, why: "not an IP address", kind: "special" });
    expect(checkAddress("", strict).ok).toBe(false);
  });
});
