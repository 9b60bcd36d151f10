import type { Deps } from "../deps.ts";
import { hitRateLimit } from "../http/rate-limit.ts";

/** Requests failing the signature check (missing, forged or stale) allowed per client address and minute. */
export const SIGNATURE_FAILURES_PER_MINUTE = 20;
/** Blocked addresses one instance remembers; past it the oldest block is forgotten (the next failure restores it). */
export const BLOCKED_ADDRESSES_MAX = 10_000;

/**
 * Makes refusing addresses that keep failing Slack's signature check cheap, without ever refusing Slack: valid
 * requests are never counted (Slack sends a lot from few addresses) and are always verified and accepted, even from
 * a blocked address (behind a load balancer with TRUST_PROXY_HOPS=0 everyone shares one). A blocked address's other
 * requests are refused 429 without a database write, before their body is read when the headers alone rule them out
 * (receiver.ts). Checking an address is a map lookup, no database. Failures are counted in the database, so every
 * instance sees the same count; an instance blocks an address when a failure it counts crosses the limit, until the
 * end of that one-minute window.
 */
export class SignatureGate {
  /** Address → end of the window it is blocked for, in insertion order, which is also the order they expire in. */
  readonly #blockedUntil = new Map<string, number>();

  constructor(
    private readonly deps: Pick<Deps, "db" | "clock">,
    private readonly limitPerMinute = SIGNATURE_FAILURES_PER_MINUTE,
    private readonly maxBlocked = BLOCKED_ADDRESSES_MAX,
  ) {}

  /** Seconds until `ip` may send again; 0 when it is not blocked. */
  retryAfter(ip: string, nowMs: number): number {
    const until = this.#blockedUntil.get(ip);
    if (until === undefined) return 0;
    if (until <= nowMs) {
      this.#blockedUntil.delete(ip);
      return 0;
    }
    return Math.ceil((until - nowMs) / 1000);
  }

  /** Counts one failure of `ip`. Over the limit it blocks the address and returns the seconds to wait, else 0. */
  async fail(ip: string, now: Date = this.deps.clock.now()): Promise<number> {
    const rate = await hitRateLimit(this.deps.db, `chat-signature:${ip}`, this.limitPerMinute, now);
    if (rate.allowed) return 0;
    this.#block(ip, rate.resetAt.getTime(), now.getTime());
    return rate.retryAfterSeconds;
  }

  get blockedCount(): number {
    return this.#blockedUntil.size;
  }

  #block(ip: string, until: number, nowMs: number): void {
    this.#blockedUntil.delete(ip);
    for (const [oldest, oldestUntil] of this.#blockedUntil) {
      if (oldestUntil > nowMs && this.#blockedUntil.size < this.maxBlocked) break;
      this.#blockedUntil.delete(oldest);
    }
    this.#blockedUntil.set(ip, until);
  }
}
