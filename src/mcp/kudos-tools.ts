import { kudosWindow, leaderboard, recentKudos } from "../features/kudos/index.ts";
import { daysArg, defineTool } from "./tool-kit.ts";

/** Kudos messages run to 500 characters: this cap keeps a result inside a model's context. */
export const KUDOS_LIMIT = 100;

export const getKudos = defineTool({
  name: "get_kudos",
  title: "Kudos and the kudos leaderboard",
  description:
    "Kudos members gave each other (in Slack: a channel message with a mention and the word kudos, @someone ++, " +
    "/upbeat kudos, or the standup's shout-out) in the last `days` days of the workspace timezone, today included. " +
    "leaderboard: who received the most (user_id, real_name, kudos_received), highest first, ties by name. kudos: " +
    "the window's kudos, newest first, each with id, from_user, from_name, to_user, to_name, message (Slack markup, " +
    `mentions as <@U…>), channel_id and created_at (ISO 8601 UTC). At most ${KUDOS_LIMIT} kudos are listed; ` +
    "truncated: true means there were more (the leaderboard still counts them all).",
  input: { days: daysArg(30, "Kudos given in this window count.") },
  async run(ctx, args) {
    const w = await kudosWindow(ctx.deps, ctx.teamId, args.days);
    const [board, recent] = await Promise.all([
      leaderboard(ctx.deps, ctx.teamId, w),
      recentKudos(ctx.deps, ctx.teamId, { since: w.start, limit: KUDOS_LIMIT + 1 }),
    ]);
    const items = recent.slice(0, KUDOS_LIMIT);
    return {
      from: w.from,
      to: w.to,
      days: args.days,
      leaderboard: board,
      count: items.length,
      truncated: recent.length > KUDOS_LIMIT,
      kudos: items,
    };
  },
});
