import { sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import { type Executor, rows } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { tooMany } from "./errors.ts";

export interface RateDecision {
  allowed: boolean;
  retryAfterSeconds: number;
  /** When this window ends and counting starts again. */
  resetAt: Date;
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
  const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const [row] = await rows<{ count: number }>(
    ex,
    sql`insert into rate_limits (bucket, window_start, count) values (${bucket}, ${windowStart.toISOString()}, 1)
        on conflict (bucket, window_start) do update set count = rate_limits.count + 1
        returning count`,
  );
  const count = Number(row?.count ?? 1);
  const resetAt = new Date(windowStart.getTime() + 60_000);
  const retryAfterSeconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  if (Math.random() < 0.01) {
    await ex.execute(
      sql`delete from rate_limits where window_start < ${new Date(now.getTime() - 120_000).toISOString()}`,
    );
  }
  return { allowed: count <= limitPerMinute, retryAfterSeconds, resetAt };
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
