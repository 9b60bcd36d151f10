import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * The keys of chat_posts claims (post-once.ts): a message's unique name, its parts joined with ":"
 * (`run:12:ask:U123`). Every key is made by `postKey`; SQL that must name a key (a join on the claim of a
 * participant's ask) builds it with `postKeySql`, and personal-data erasure matches keys with `postKeyLike`, so no
 * query spells a key's format by hand and a format change cannot leave one of them behind.
 */
type Part = string | number;

/** Stands for any value of one part in `postKeyLike` (a `%`). */
export const ANY_PART: unique symbol = Symbol("any part");

export const postKey = (...parts: Part[]): string => parts.join(":");

/** The same key computed in SQL from columns (or values): `'run' || ':' || p.run_id::text || …`. */
export function postKeySql(...parts: (Part | SQLWrapper)[]): SQL {
  return sql.join(
    parts.map((p) => (typeof p === "string" || typeof p === "number" ? sql`${String(p)}::text` : sql`(${p})::text`)),
    sql` || ':' || `,
  );
}

const likeEscape = (value: string) => value.replace(/[\\%_]/g, "\\$&");

/** A LIKE pattern for keys of this shape: fixed parts escaped, `ANY_PART` matching any one or more parts' text. */
export const postKeyLike = (...parts: (Part | typeof ANY_PART)[]): string =>
  parts.map((p) => (p === ANY_PART ? "%" : likeEscape(String(p)))).join(":");
