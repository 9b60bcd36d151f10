import { isIPv6 } from "node:net";
import { sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import { type Executor, rows } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { daysAgo, type PruneStep } from "../lib/retention.ts";
import { tooMany } from "./errors.ts";

export interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
  /** When this window ends and counting starts again. */
  resetAt: Date;
}

/** The one-minute window `now` falls in: its start, its end, and the seconds left (at least 1, for Retry-After). */
function windowOf(now: Date): { windowStart: string; resetAt: Date; retryAfterSeconds: number } {
  const start = Math.floor(now.getTime() / 60_000) * 60_000;
  const resetAt = new Date(start + 60_000);
  const retryAfterSeconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  return { windowStart: new Date(start).toISOString(), resetAt, retryAfterSeconds };
}

/**
 * Fixed one-minute windows counted in the database, so every instance shares the count.
 * Old windows are pruned now and then by the same statement's caller (cheap: keyed by window start).
 */
export async function hitRateLimit(
  ex: Executor,
  bucket: string,
  limitPerMinute: number,
  now: Date,
): Promise<RateDecision> {
  const { windowStart, resetAt, retryAfterSeconds } = windowOf(now);
  const [row] = await rows<{ count: number }>(
    ex,
    sql`insert into rate_limits (bucket, window_start, count) values (${bucket}, ${windowStart}, 1)
        on conflict (bucket, window_start) do update set count = rate_limits.count + 1
        returning count`,
  );
  const count = Number(row?.count ?? 1);
  if (Math.random() < 0.01) {
    await ex.execute(
      sql`delete from rate_limits where window_start < ${new Date(now.getTime() - 120_000).toISOString()}`,
    );
  }
  return { allowed: count <= limitPerMinute, retryAfterSeconds, resetAt };
}

/**
 * Whether `bucket` is already past its limit in the current window, without counting anything (for limits that
 * count only failures: the request is refused up front once the failures are used up).
 */
export async function peekRateLimit(
  deps: Pick<Deps, "db" | "clock">,
  reply: FastifyReply,
  bucket: string,
  limitPerMinute: number,
  now: Date = deps.clock.now(),
): Promise<RateDecision> {
  const { windowStart, resetAt, retryAfterSeconds } = windowOf(now);
  const [row] = await rows<{ count: number }>(
    deps.db,
    sql`select count from rate_limits where bucket = ${bucket} and window_start = ${windowStart}`,
  );
  const allowed = Number(row?.count ?? 0) < limitPerMinute;
  if (!allowed) reply.header("retry-after", String(retryAfterSeconds));
  return { allowed, retryAfterSeconds, resetAt };
}

/**
 * Counts one request against `bucket`; over the limit the reply already carries Retry-After, and the
 * caller answers 429 in its own shape (an HTML page, a JSON-RPC error).
 */
export async function checkRateLimit(
  deps: Pick<Deps, "db" | "clock">,
  reply: FastifyReply,
  bucket: string,
  limitPerMinute: number,
  now: Date = deps.clock.now(),
): Promise<RateDecision> {
  const rate = await hitRateLimit(deps.db, bucket, limitPerMinute, now);
  if (!rate.allowed) reply.header("retry-after", String(rate.retryAfterSeconds));
  return rate;
}

/** checkRateLimit for JSON routes: over the limit it throws the 429 the error handler answers as `{"error"}`. */
export async function enforceRateLimit(
  deps: Pick<Deps, "db" | "clock">,
  reply: FastifyReply,
  bucket: string,
  limitPerMinute: number,
  now: Date = deps.clock.now(),
): Promise<void> {
  if (!(await checkRateLimit(deps, reply, bucket, limitPerMinute, now)).allowed) throw tooMany();
}

/**
 * The per-address bucket of a client address: IPv4 as is (an IPv4-mapped IPv6 address is its IPv4 address), IPv6
 * by its /64 prefix, because one host is usually handed a whole /64 and could otherwise change address per request.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = "", tail = ""] = ip.split("%")[0]!.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** Rate-limit windows last a minute; a day-old one is long dead (the hot path prunes too, now and then). */
export const RATE_WINDOW_RETENTION_DAYS = 1;

export const rateLimitPruneSteps: readonly PruneStep[] = [
  {
    name: "rate_limits",
    table: "rate_limits",
    where: (now) => sql`window_start < ${daysAgo(now, RATE_WINDOW_RETENTION_DAYS)}`,
  },
];
