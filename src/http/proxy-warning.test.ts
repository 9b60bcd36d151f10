import pino from "pino";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/support/app.ts";
import { addressKey } from "./rate-limit.ts";

describe("client addresses", () => {
  it("X-Forwarded-For with TRUST_PROXY_HOPS=0 is warned about once", async () => {
    const lines: { level: number; msg: string }[] = [];
    const log = pino({ level: "warn" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const t = await createTestApp({ log });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await t.inject({ url: "/healthz", headers: { "x-forwarded-for": "203.0.113.7" } });
        expect(res.statusCode).toBe(200);
      }
      const warnings = lines.filter((l) => l.msg.includes("TRUST_PROXY_HOPS is 0"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.level).toBe(40);
    } finally {
      await t.close();
    }
  });

  it("count IPv4 as is and IPv6 by its /64", () => {
    expect(addressKey("198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:0001:0002::9")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:3::9")).not.toBe(addressKey("2001:db8:1:2::9"));
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });
});

describe("database unavailable", () => {
  it("pool timeouts, refused connections and PostgreSQL's connection classes are a 503, other failures are not", async () => {
    const { isDatabaseUnavailable } = await import("./error-handler.ts");
    const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1\nparams: "), { cause });
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(new Error("timeout exceeded when trying to connect")))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error("x"), { code: "57P01" })))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error("x"), { code: "08006" })))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error("x"), { code: "53300" })))).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error("dup"), { code: "23505" })))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Cannot read properties of undefined"))).toBe(false);
  });
});
