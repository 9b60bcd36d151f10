import { z } from "zod";
import { isoTimestamp } from "./common.ts";

const count = (what: string) => z.number().int().nullable().describe(`${what} (null before the first sync ends)`);

export const memberSyncStatus = z
  .object({
    state: z
      .enum(["idle", "queued", "running"])
      .describe("queued: waiting for a worker (or for a retry after a failure); running: reading Slack now"),
    reason: z.enum(["install", "daily", "manual"]).nullable().describe("What queued the latest sync"),
    queued_at: isoTimestamp.nullable(),
    started_at: isoTimestamp.nullable().describe("When the latest sync started"),
    finished_at: isoTimestamp.nullable().describe("When the latest sync ended, either way"),
    outcome: z.enum(["ok", "failed"]).nullable().describe("How the latest sync ended"),
    error: z.string().nullable().describe("Why it failed, when it did"),
    listed: count("People Slack listed (bots and apps left out)"),
    added: count("Members the latest sync added"),
    deactivated: count("Members it marked inactive (deactivated in Slack, or no longer listed)"),
    reactivated: count("Members it made active again"),
    next_daily_at: isoTimestamp.describe("When the daily resync is due next (this workspace's time of the UTC day)"),
  })
  .meta({ id: "MemberSyncStatus" });

export const memberSyncQueued = z
  .object({
    status: z
      .enum(["queued", "already_queued", "running"])
      .describe("queued: a sync was queued now; already_queued / running: one was already on its way, no second"),
  })
  .meta({ id: "MemberSyncQueued" });
