import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { findMember } from "../features/members/index.ts";
import { hitRateLimit } from "../http/rate-limit.ts";
import { type ToolContext, ToolError } from "./tool-kit.ts";

/**
 * Write tools (issue 26): each acts as the credential's member only (never a user id from the arguments) through the
 * same service as Slack, so validation, claims, events, webhooks and rules are the same whoever writes.
 */

/** Writes a member may make a minute through MCP, all write tools together (reads are limited per credential). */
export const MCP_WRITES_PER_MINUTE = 20;

/** Writes change data but only add or edit the member's own: nothing a client must confirm as destructive. */
export const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** The member a write acts as: checked on every call (the credential may outlive their membership or role). */
export interface Writer {
  userId: string;
  isAdmin: boolean;
}

/**
 * Who writes: the credential's member, who must still be an active member of the workspace, within the per-member
 * rate limit (counted in the database, so every instance shares it). Every refusal is a tool error in plain words.
 */
export async function writer(ctx: ToolContext): Promise<Writer> {
  const userId = ctx.userId;
  if (!userId) {
    throw new ToolError(
      "This credential acts for nobody: the member who created it was removed from Upbeat. It can still read; " +
        "create a new key (or connect again) to write.",
    );
  }
  const decision = await hitRateLimit(
    ctx.deps.db,
    `mcp-write:${ctx.teamId}:${userId}`,
    MCP_WRITES_PER_MINUTE,
    ctx.deps.clock.now(),
  );
  if (!decision.allowed) {
    throw new ToolError(
      `Too many writes (429): at most ${MCP_WRITES_PER_MINUTE} a minute per member. Retry in ` +
        `${decision.retryAfterSeconds} seconds (after ${decision.resetAt.toISOString()}).`,
    );
  }
  const member = await findMember(ctx.deps.db, ctx.teamId, userId);
  if (!member?.active) {
    throw new ToolError(`${userId} is not an active member of this workspace, so this credential cannot write.`);
  }
  return { userId, isAdmin: member.role === "admin" };
}
