import { sql } from "drizzle-orm";
import { dateDaysAgo, daysAgo, type PruneStep } from "../../lib/retention.ts";

/**
 * DM-conversation rows of runs closed more than a week ago: a late reply to such a run is only told it closed, which
 * needs no question row after that. (Each close also drops the schedule's earlier runs' questions; this covers runs
 * whose schedule was deleted, and turns left pointing at closed runs.)
 */
export const DM_CONVERSATION_RETENTION_DAYS = 7;

const closedRuns = (now: Date) =>
  sql`run_id in (select id from standup_runs
                 where status <> 'open' and closes_at < ${daysAgo(now, DM_CONVERSATION_RETENTION_DAYS)})`;

export const standupPruneSteps: readonly PruneStep[] = [
  { name: "dm_questions", table: "dm_questions", where: closedRuns },
  { name: "dm_turns", table: "dm_turns", where: closedRuns },
  // Answers given ahead for a date that passed a week ago without becoming a response (the member was away or left
  // the channel, or the standup was paused): no run will ever ask for them.
  {
    name: "early_answers",
    table: "early_answers",
    where: (now) => sql`local_date < ${dateDaysAgo(now, DM_CONVERSATION_RETENTION_DAYS)}::date`,
  },
];
