import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * Lists as one bind parameter each. PostgreSQL takes at most 65,535 parameters per statement: a statement with a
 * parameter per item (`in ($1, $2, …)`, multi-row `values`) fails for a big enough list, on every retry. An array is
 * one parameter however long it is, and the statement's text stays the same for every length.
 */
type ElementType = "text" | "int8" | "int4" | "int2" | "date" | "timestamptz" | "bool";

type Element<T extends ElementType> = T extends "int8" | "int4" | "int2"
  ? number | string
  : T extends "bool"
    ? boolean
    : T extends "timestamptz"
      ? Date | string
      : string;

/**
 * `$n::type[]` holding these values (null elements allowed). Dates go as ISO strings: both drivers then send the
 * same text, whatever their own Date encoding.
 */
export function pgArray<T extends ElementType>(type: T, values: readonly (Element<T> | null)[]): SQL {
  const encoded = values.map((v) => (v instanceof Date ? v.toISOString() : v));
  return sql`${sql.param(encoded)}::${sql.raw(type)}[]`;
}

/** `column = any($n::text[])`: true when the column's value is one of these (false for an empty list). */
export function anyOf(column: SQLWrapper | SQL, values: readonly string[]): SQL {
  return sql`${column} = any(${pgArray("text", values)})`;
}
