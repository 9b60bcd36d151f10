import { sql } from "drizzle-orm";
import { CLAIM_STALE_SECONDS } from "../../src/chat/post-once.ts";
import type { Deps } from "../../src/deps.ts";

/**
 * Ages every `unknown` message claim past CLAIM_STALE_SECONDS, as the time before a failed job's retry would
 * (its backoff, then its wait on the claim): the retry looks the message up at once instead of waiting 20 s.
 * post-once.test.ts covers the wait itself.
 */
export async function ageUnknownClaims(deps: Pick<Deps, "db">): Promise<void> {
  await deps.db.execute(
    sql`update chat_posts set updated_at = now() - make_interval(secs => ${CLAIM_STALE_SECONDS + 1})
        where state = 'unknown'`,
  );
}

/** Runs the queued jobs as queue.drain() does, ageing `unknown` claims before each round (see ageUnknownClaims). */
export async function drainAgingClaims(deps: Pick<Deps, "db" | "queue">, maxRounds = 100): Promise<void> {
  for (let round = 0; round < maxRounds; round++) {
    await ageUnknownClaims(deps);
    if ((await deps.queue.drain({ maxRounds: 1 })) === 0) return;
  }
}
