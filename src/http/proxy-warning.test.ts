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
