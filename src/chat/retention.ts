import { sql } from "drizzle-orm";
import { daysAgo, type PruneStep } from "../lib/retention.ts";
import { FAILED_DELIVERY_RETENTION_DAYS } from "./intake/intake.ts";

/** Slack retries an event within about an hour; a week of event ids is far more than any retry needs. */
export const CHAT_EVENT_RETENTION_DAYS = 7;
/** Every job gives up within about a day (queue.ts), so a settled claim this old has no retry coming. */
export const POST_CLAIM_RETENTION_DAYS = 30;
/** A claim left `sending` or `unknown` this long belongs to a job that gave up long ago. */
export const UNSETTLED_CLAIM_RETENTION_DAYS = 90;
/** A Slack rate bucket untouched this long is full again: its row says nothing a fresh one would not. */
export const RATE_BUCKET_RETENTION_DAYS = 1;

/** The chat layer's tables: received deliveries, message claims and Slack rate buckets. */
export const chatPruneSteps: readonly PruneStep[] = [
  {
    name: "chat_events",
    table: "chat_events",
    // Failed deliveries are kept longer: admins are shown them ("events that could not be processed").
    where: (now) =>
      sql`(state <> 'failed' and received_at < ${daysAgo(now, CHAT_EVENT_RETENTION_DAYS)})
          or received_at < ${daysAgo(now, FAILED_DELIVERY_RETENTION_DAYS)}`,
  },
  {
    name: "chat_rate_buckets",
    table: "chat_rate_buckets",
    where: (now) => sql`updated_at < ${daysAgo(now, RATE_BUCKET_RETENTION_DAYS)}`,
  },
  // Settled claims after 30 days. `sending` and `unknown` may still be in flight (post-once.ts takes them over when
  // stale), but not for 90 days: every job gives up within about a day, so such a claim has nothing behind it.
  {
    name: "chat_posts",
    table: "chat_posts",
    where: (now) =>
      sql`(state in ('sent', 'failed') and updated_at < ${daysAgo(now, POST_CLAIM_RETENTION_DAYS)})
          or updated_at < ${daysAgo(now, UNSETTLED_CLAIM_RETENTION_DAYS)}`,
  },
];
