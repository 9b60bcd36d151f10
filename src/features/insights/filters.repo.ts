import { type SQL, sql } from "drizzle-orm";

/** SQL fragments the insight queries share: the standup and member filters, the search match, percentages. */

/** One standup, one member: the filters every view takes. */
export interface Filters {
  scheduleId?: string | undefined;
  userId?: string | undefined;
}

export const pctSql = (num: SQL, den: SQL) =>
  sql`case when ${den} = 0 then 0 else round(100.0 * ${num} / ${den})::int end`;

/** Responses `r` of one standup / member. */
export const responseFilter = (f: Filters) =>
  sql`${f.scheduleId ? sql`and r.schedule_id = ${f.scheduleId}` : sql``} ${f.userId ? sql`and r.user_id = ${f.userId}` : sql``}`;

/** The full-text match of search_standups and /reports?q: the generated `search` vector, web-search syntax. */
export const matchesSearch = (query: string) => sql`r.search @@ websearch_to_tsquery('english', ${query})`;
