import { lookup } from "node:dns/promises";

/** One address a host name resolves to, as `dns.lookup` with `all` gives it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * How the service reaches addresses that customers chose (webhook endpoints). Part of deps so tests can play a
 * DNS that answers differently from one lookup to the next (rebinding) without touching the network.
 */
export interface Outbound {
  /** Every address the name has right now (the system resolver: /etc/hosts, then DNS). */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
  /**
   * Tests and `npm run demo` only, never set from configuration: plain `http://` targets are accepted next to
   * `https://`, so a test (or the demo) can run its receiver on 127.0.0.1 without TLS. Production is https only.
   */
  allowPlainHttp: boolean;
  /**
   * Tests only, never set from configuration: an OAuth Client ID Metadata Document may be served from a loopback
   * address (the test's document server on 127.0.0.1). Private, link-local and reserved addresses stay refused.
   */
  allowLoopbackClientDocuments?: boolean;
  /** Tests only: one more certificate authority (PEM) trusted for Client ID Metadata Documents (a self-signed one). */
  extraCa?: string;
}

export const systemOutbound: Outbound = {
  async resolve(hostname) {
    const found = await lookup(hostname, { all: true, order: "verbatim" });
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
  allowPlainHttp: false,
};
