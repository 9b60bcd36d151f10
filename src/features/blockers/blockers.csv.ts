import type { Deps } from "../../deps.ts";
import { CSV_BOM, csvLine } from "../insights/index.ts";
import { standupChannelNames } from "../schedules/index.ts";
import { blockerRows } from "./blockers.repo.ts";
import { type BlockerQuery, filtersOf, presentBlocker } from "./blockers.service.ts";

export const BLOCKER_CSV_COLUMNS = [
  "id",
  "standup",
  "user_id",
  "real_name",
  "text",
  "status",
  "opened_date",
  "age_days",
  "resolved_at",
  "resolved_by",
  "resolution_note",
] as const;

const BATCH = 500;

/**
 * Every item the filters match, in the page's order, as CSV: the BOM and the formula guard of the answers export
 * (a blocker's text and note are typed by people, so "=HYPERLINK(…)" arrives as text). One query per batch.
 */
export async function* blockerCsv(
  deps: Pick<Deps, "db" | "clock" | "chat">,
  teamId: string,
  q: BlockerQuery,
): AsyncGenerator<string> {
  const f = filtersOf(q);
  // The same "now" for every batch, so an item's age cannot change between two of them.
  const now = deps.clock.now();
  const channels = await standupChannelNames(deps, teamId);
  yield CSV_BOM + csvLine([...BLOCKER_CSV_COLUMNS]);
  for (let offset = 0; ; offset += BATCH) {
    const batch = await blockerRows(deps.db, teamId, f, now, { limit: BATCH, offset });
    yield batch
      .map((r) => presentBlocker(r, channels))
      .map((b) =>
        csvLine([
          b.id,
          b.standup_name,
          b.user_id,
          b.real_name,
          b.text,
          b.status,
          b.opened_date,
          b.age_days,
          b.resolved_at,
          b.resolved_by,
          b.resolution_note,
        ]),
      )
      .join("");
    if (batch.length < BATCH) return;
  }
}
