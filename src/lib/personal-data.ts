import type { SQL } from "drizzle-orm";

/**
 * Where a feature keeps a member's personal data, declared next to the feature (`features/<name>/personal-data.ts`)
 * and collected in one list (features/data-removal/personal-data.registry.ts). Deleting a member's data walks that
 * list; a test scans every text and JSON column after a deletion and checks that every column whose name suggests a
 * person is covered, so a new place cannot be forgotten silently.
 *
 * Every table named here has a `team_id` column: entries are applied within one workspace, and deleting a
 * workspace (every row of every team_id table) covers them all.
 */

/** The person being erased, as stored (LIKE patterns are built from it with chat/post-keys.ts' postKeyLike). */
export interface Person {
  team: string;
  user: string;
}

interface Place {
  table: string;
  /** Why this place holds personal data and why it is handled this way (the registry's documentation). */
  why: string;
}

export type PersonalDataPlace =
  /** Rows that belong to the person: deleted (optionally only those matching `where`, SQL on the same table). */
  | (Place & { kind: "rows"; column: string; where?: SQL })
  /** A reference to the person on a row that belongs to the workspace: the value is replaced by `''`. */
  | (Place & { kind: "redact"; column: string })
  /** An array of user ids (`jsonb` array of strings, or `text[]`): the person's id is removed, the row stays. */
  | (Place & { kind: "array"; column: string; type: "jsonb" | "text[]" })
  /**
   * A JSON document (`jsonb`, or `text` holding JSON) that names the person at one of `paths` (SQL/JSON paths such
   * as `$.data.user.id` or `$.data.blockers[*].user_id`): the row is deleted.
   */
  | (Place & { kind: "json"; column: string; type: "jsonb" | "text"; paths: string[] })
  /** Claim keys that embed the user id (`run:<id>:ask:<user>`): rows whose key matches a LIKE pattern are deleted. */
  | (Place & { kind: "key"; column: string; patterns: (v: Person) => string[] })
  /**
   * Free text written by others that may mention the person as Slack sends mentions (`<@U123>`, `<@U123|name>`):
   * each mention is rewritten to MENTION_REPLACEMENT, the rest of the text stays theirs.
   */
  | (Place & { kind: "mention"; column: string; type: "text" | "jsonb" })
  /**
   * Text generated about the workspace's people (AI summaries) that may name the person in words, which no search for
   * an id finds: `column` is set to null on every row of the workspace matching `where`, with `set` (SQL assignments
   * on the same table, saying why) beside it. The row stays.
   */
  | (Place & { kind: "clear"; column: string; set: SQL; where?: SQL });

/**
 * A queued job whose payload names the person: jobs of `queue` whose `data.<field>` equals the user id (or, with
 * `patterns`, matches one) are deleted unless already running (finished ones too: they keep their payload a week).
 */
export interface PersonalJob {
  queue: string;
  field: string;
  /** `data.<field>` is a list of user ids (a chunk of asks): the person is taken out of it, the job stays for the rest. */
  inList?: boolean;
  patterns?: (v: Person) => string[];
  why: string;
}

/** What one feature declares. */
export interface PersonalData {
  feature: string;
  places: PersonalDataPlace[];
  jobs?: PersonalJob[];
}

/** What a mention of an erased person becomes in others' text. */
export const MENTION_REPLACEMENT = "@former member";
