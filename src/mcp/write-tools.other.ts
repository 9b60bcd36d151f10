import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { TIME_OFF_MAX_UPCOMING, TIME_OFF_REASON_MAX } from "../contract/index.ts";
import { rows } from "../db/client.ts";
import type { timeOff } from "../db/schema.ts";
import { DAILY_KUDOS_LIMIT, giveKudos, MAX_KUDO_LENGTH } from "../features/kudos/index.ts";
import { findMember } from "../features/members/index.ts";
import { findBlocker, MAX_RESOLUTION_NOTE, resolveBlocker } from "../features/standups/index.ts";
import { comeBack, removeRange, setAway, upcomingRanges } from "../features/time-off/index.ts";
import { dateArg, defineTool, realDate, type ToolContext, ToolError } from "./tool-kit.ts";
import { WRITE, writer } from "./write-tools.guard.ts";

const presentRange = (r: Pick<typeof timeOff.$inferSelect, "id" | "startDate" | "endDate" | "reason">) => ({
  id: Number(r.id),
  start_date: r.startDate,
  end_date: r.endDate,
  reason: r.reason,
});

async function upcoming(ctx: ToolContext, userId: string) {
  return (await upcomingRanges(ctx.deps, ctx.teamId, userId, TIME_OFF_MAX_UPCOMING)).map(presentRange);
}

export const setTimeOffTool = defineTool({
  name: "set_time_off",
  title: "Set or clear my time off",
  description:
    "Sets time off for the member this credential acts for, from start_date to end_date (both included, in the " +
    "workspace timezone; merged with ranges it touches), as the dashboard and `/upbeat away` do: while away they are " +
    "not asked, reminded or counted. clear: true ends the time off covering today (as `/upbeat back`), or with " +
    "start_date removes the range covering that date. Returns the range set or cleared and the member's current and " +
    "upcoming ranges.",
  input: {
    start_date: dateArg("First day away; with clear, a day of the range to remove"),
    end_date: dateArg("Last day away"),
    reason: z.string().trim().max(TIME_OFF_REASON_MAX).optional().describe("Optional, shown to admins"),
    clear: z.boolean().optional().describe("true: remove time off instead of setting it"),
  },
  scope: "standups:write",
  // Clearing removes a range the member set: say so, though it is only ever their own.
  annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
  async run(ctx, args) {
    const w = await writer(ctx);
    const start = realDate("start_date", args.start_date);
    const end = realDate("end_date", args.end_date);
    if (args.clear) {
      if (start === undefined) {
        const back = await comeBack(ctx.deps, ctx.teamId, w.userId);
        if (!back) {
          throw new ToolError("You are not on time off today; pass start_date to remove an upcoming range.");
        }
        const cleared = { ...presentRange(back.range), ends_on: back.removed ? null : back.endsOn };
        return { cleared, time_off: await upcoming(ctx, w.userId) };
      }
      const ranges = await upcomingRanges(ctx.deps, ctx.teamId, w.userId, TIME_OFF_MAX_UPCOMING);
      const found = ranges.find((r) => r.startDate <= start && start <= r.endDate);
      if (!found) throw new ToolError(`You have no current or upcoming time off covering ${start}.`);
      await removeRange(ctx.deps, { teamId: ctx.teamId, userId: w.userId, role: "member" }, Number(found.id));
      return { cleared: presentRange(found), time_off: await upcoming(ctx, w.userId) };
    }
    if (start === undefined || end === undefined) {
      throw new ToolError("start_date and end_date are required to set time off (or pass clear: true).");
    }
    const outcome = await setAway(ctx.deps, {
      teamId: ctx.teamId,
      userId: w.userId,
      by: w.userId,
      startDate: start,
      endDate: end,
      reason: args.reason,
      via: "mcp",
    });
    if (!outcome.ok) throw new ToolError(outcome.error);
    return { set: presentRange(outcome.range), time_off: await upcoming(ctx, w.userId) };
  },
});

/**
 * Where a kudo from an AI client is recorded: no Slack channel saw it, so it is filed under the channel of the giver's
 * latest standup (where their team reads, as a command's kudo is filed under the command's channel); "" when the
 * giver was never asked in one.
 */
async function kudosChannel(ctx: ToolContext, userId: string): Promise<string> {
  const [row] = await rows<{ channel_id: string }>(
    ctx.deps.db,
    sql`select run.channel_id from run_participants p join standup_runs run on run.id = p.run_id
        where p.team_id = ${ctx.teamId} and p.user_id = ${userId} and run.team_id = ${ctx.teamId}
        order by run.starts_at desc limit 1`,
  );
  return row?.channel_id ?? "";
}

export const giveKudosTool = defineTool({
  name: "give_kudos",
  title: "Give kudos",
  description:
    "Gives a kudo from the member this credential acts for to another member, as `/upbeat kudos` does: at most " +
    `${DAILY_KUDOS_LIMIT} a day per giver, never to oneself, a message of at most ${MAX_KUDO_LENGTH} characters. ` +
    "get_members lists user ids. Returns kudo_id, to_user, message and channel_id (the giver's standup channel).",
  input: {
    to_user_id: z.string().trim().min(1).max(64).describe("Who receives it: a Slack user id such as U01ABCDEF"),
    message: z
      .string()
      .trim()
      .min(1)
      // Characters are counted as people see them (an emoji is one) below; the schema allows their UTF-16 length.
      .max(2 * MAX_KUDO_LENGTH)
      .describe(`What for (Slack markup), at most ${MAX_KUDO_LENGTH} characters`),
  },
  scope: "standups:write",
  annotations: WRITE,
  async run(ctx, args) {
    const w = await writer(ctx);
    const length = [...args.message].length;
    if (length > MAX_KUDO_LENGTH) {
      throw new ToolError(`message is ${length} characters; at most ${MAX_KUDO_LENGTH}.`);
    }
    const channelId = await kudosChannel(ctx, w.userId);
    const outcome = await giveKudos(ctx.deps, {
      teamId: ctx.teamId,
      fromUser: w.userId,
      receivers: [args.to_user_id],
      message: args.message,
      channelId,
      source: "mcp",
      // A fresh claim per call: the same words given twice are two kudos, as two commands are.
      sourceKey: `mcp:${randomUUID()}`,
    });
    const given = outcome.given[0];
    if (given) return { kudo_id: given.kudoId, to_user: given.userId, message: args.message, channel_id: channelId };
    const reason = outcome.refused[0]?.reason;
    if (reason === "self") throw new ToolError("You cannot give yourself kudos.");
    if (reason === "limit") {
      throw new ToolError(`You have given your ${DAILY_KUDOS_LIMIT} kudos for today; give more tomorrow.`);
    }
    throw new ToolError(`${args.to_user_id} is not an active member of this workspace (not found).`);
  },
});

export const resolveBlockerTool = defineTool({
  name: "resolve_blocker",
  title: "Resolve a blocker",
  description:
    "Resolves an open blocker item (get_blockers lists them with blocker_id) as the member this credential acts " +
    "for, with an optional note: their own, or anyone's when they are a workspace admin. Sends the blocker.resolved " +
    "webhook event once. Returns the item as resolved.",
  input: {
    blocker_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe("The blocker item"),
    note: z.string().max(MAX_RESOLUTION_NOTE).optional().describe("How it was resolved (optional)"),
  },
  scope: "standups:write",
  annotations: { ...WRITE, idempotentHint: true },
  async run(ctx, args) {
    const w = await writer(ctx);
    const out = await resolveBlocker(ctx.deps, {
      teamId: ctx.teamId,
      blockerId: args.blocker_id,
      by: w.userId,
      asAdmin: w.isAdmin,
      note: args.note ?? null,
      via: "mcp",
    });
    if (out.ok) {
      const b = out.blocker;
      return {
        blocker_id: b.id,
        user_id: b.userId,
        schedule_id: b.scheduleId,
        text: b.text,
        status: b.status,
        resolved_by: b.resolvedBy,
        resolved_at: b.resolvedAt?.toISOString() ?? null,
        resolution_note: b.resolutionNote,
      };
    }
    if (out.reason === "not_found") {
      throw new ToolError(`blocker_id ${args.blocker_id} is not a blocker of this workspace (not found).`);
    }
    if (out.reason === "already_resolved") throw new ToolError(`Blocker ${args.blocker_id} is already resolved.`);
    const item = await findBlocker(ctx.deps.db, ctx.teamId, args.blocker_id);
    const owner = item ? await findMember(ctx.deps.db, ctx.teamId, item.userId) : undefined;
    const name = owner?.realName || owner?.displayName || item?.userId || "its member";
    throw new ToolError(`Blocker ${args.blocker_id} is ${name}'s: only ${name} or a workspace admin can resolve it.`);
  },
});
