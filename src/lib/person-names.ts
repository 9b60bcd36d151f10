/**
 * What a person is called where their name is unknown: a Slack id means nothing to a reader (issue 24), so pages,
 * the feed, Slack messages and webhook payloads say one of these instead.
 */
/** No member row any more (deleted with their data, or never stored). */
export const FORMER_MEMBER = "Former member";
/** A member row without a real or display name (Slack had not answered when the row was made). */
export const UNNAMED_MEMBER = "Unnamed member";

/**
 * The same rule in SQL for a query that left-joins members as `alias`: no row is a former member. The alias is
 * a fixed identifier from the calling code, never input.
 */
export function personNameSql(alias: string): string {
  return `case when ${alias}.user_id is null then '${FORMER_MEMBER}' else coalesce(nullif(trim(${alias}.real_name), ''), nullif(trim(${alias}.display_name), ''), '${UNNAMED_MEMBER}') end`;
}

/** Real name, else display name, else "Unnamed member": never the id. */
export function nameOfRow(row: { realName: string | null; displayName?: string | null }): string {
  return row.realName?.trim() || row.displayName?.trim() || UNNAMED_MEMBER;
}
