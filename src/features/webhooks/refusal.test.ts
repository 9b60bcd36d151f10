import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../test/support/app.ts";
import type { ResolvedAddress } from "../../lib/outbound.ts";

const TEAM = "T0REFUSE";
const ADMIN = "U0REFUSEADMIN";

const DNS: Record<string, ResolvedAddress[]> = {
  "hooks.example.com": [{ address: "93.184.216.34", family: 4 }],
  "inside.example.com": [{ address: "10.0.0.8", family: 4 }],
};

/** Each refused URL, the API's message as the spec fixes it, and the code beside it that the dashboard explains. */
const CASES: [url: string, error: string, refusal: string][] = [
  ["https://127.0.0.1/x", "url host 127.0.0.1 is a loopback address: webhooks go only to public addresses", "loopback"],
  ["https://[::1]/x", "url host [::1] is a loopback address: webhooks go only to public addresses", "loopback"],
  [
    "https://192.168.1.1/x",
    "url host 192.168.1.1 is a private address: webhooks go only to public addresses",
    "private",
  ],
  [
    "https://[::ffff:10.0.0.1]/x",
    "url host [::ffff:a00:1] is an IPv6 form of 10.0.0.1, a private address: webhooks go only to public addresses",
    "private",
  ],
  [
    "https://100.64.0.1/x",
    "url host 100.64.0.1 is a shared address (100.64.0.0/10): webhooks go only to public addresses",
    "private",
  ],
  [
    "https://[fd12::1]/x",
    "url host [fd12::1] is a unique local (private) address: webhooks go only to public addresses",
    "private",
  ],
  [
    "https://169.254.169.254/x",
    "url host 169.254.169.254 is a link-local address: webhooks go only to public addresses",
    "link_local",
  ],
  [
    "https://100.100.100.200/x",
    "url host 100.100.100.200 is a cloud metadata service: webhooks go only to public addresses",
    "metadata",
  ],
  ["https://224.0.0.1/x", "url host 224.0.0.1 is a multicast address: webhooks go only to public addresses", "special"],
  [
    "https://localhost/x",
    "url host localhost must be a public domain name such as hooks.example.com",
    "single_label_name",
  ],
  [
    "https://db.internal/x",
    "url host db.internal is an internal name (.internal): webhooks go only to public addresses",
    "internal_name",
  ],
  [
    "https://inside.example.com/x",
    "url host inside.example.com resolves to a non-public address: webhooks go only to public addresses",
    "resolves_non_public",
  ],
  ["https://nowhere.example.com/x", "url host nowhere.example.com does not resolve", "does_not_resolve"],
  ["http://hooks.example.com/x", "url must start with https://", "not_https"],
  ["not a url", "url must be an absolute https:// URL", "invalid_url"],
  ["https://u:p@hooks.example.com/x", "url must not contain a user name or password (user:pass@)", "credentials"],
  ["https://hooks.example.com/x#f", "url must not contain a #fragment", "fragment"],
  [
    "https://hooks.example.com:22/x",
    "url port 22 is not allowed: use 443 (the default) or a port from 1024 to 65535",
    "port",
  ],
  [`https://hooks.example.com/${"a".repeat(2000)}`, "url must be at most 2000 characters", "too_long"],
];

describe("a refused webhook URL says why as a code beside the message", async () => {
  const t = await useTestApp({
    outbound: {
      async resolve(hostname) {
        const found = DNS[hostname];
        if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
        return found;
      },
    },
  });
  await t.installTeam(TEAM, { installer: ADMIN });
  const admin = await t.signIn(TEAM, ADMIN);
  const create = (body: unknown) =>
    t.inject({
      method: "POST",
      url: "/dashboard/api/webhooks",
      headers: { cookie: admin, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });

  it("keeps the spec's error message and adds `refusal` for every kind of refused URL", async () => {
    const got = [];
    for (const [url] of CASES) {
      const res = await create({ url });
      got.push([url, res.statusCode, res.json()]);
    }
    expect(got).toEqual(CASES.map(([url, error, refusal]) => [url, 400, { error, refusal }]));
  });

  it("other invalid input keeps the plain error body", async () => {
    const res = await create({ url: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "url must be a string" });
  });
});
