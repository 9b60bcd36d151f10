import { sql } from "drizzle-orm";
import type { PersonalData } from "../../lib/personal-data.ts";

/** Why a cleared summary has no text (the row's `error`). */
export const REMOVED_ERROR = "member_data_removed";

/**
 * AI summaries are the model's prose about the team: they name people by display name, not by id, so no search can
 * tell which ones mention the member. When a member's data is deleted, every summary of the workspace loses its text
 * (the row stays, `removed`, so the run is not summarised again from answers that are gone; failed and skipped rows
 * have no text and keep their reason). A claim still pending is
 * marked too: the call under way then stores nothing (it finishes only pending rows) and its retry gives up.
 */
const removed = sql.raw(`status = 'removed', error = '${REMOVED_ERROR}'`);
const named = sql.raw("text is not null or status = 'pending'");

export const aiSummaryPersonalData: PersonalData = {
  feature: "ai-summary",
  places: [
    {
      kind: "clear",
      table: "ai_summaries",
      column: "text",
      set: removed,
      where: named,
      why: "a run's AI summary may name the member in words: every summary text of the workspace is cleared",
    },
    {
      kind: "clear",
      table: "ai_digest_summaries",
      column: "text",
      set: removed,
      where: named,
      why: "a week's AI summary for the digest may name the member in words: every one of the workspace is cleared",
    },
  ],
};
