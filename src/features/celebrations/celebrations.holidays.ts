import { parse } from "csv-parse/sync";
import type { Deps } from "../../deps.ts";
import { badRequest, forbidden, notFound } from "../../http/errors.ts";
import {
  deleteHoliday,
  type HolidayAuthor,
  isRealDate,
  listHolidays,
  MAX_HOLIDAYS,
  putHoliday,
  putHolidays,
} from "../calendar/index.ts";
import { holidayNameProblem, MAX_IMPORT_ROWS } from "./celebrations.input.ts";
import { requireManager } from "./celebrations.service.ts";

/**
 * Holidays on the dashboard. Workspace admins and Celebrations admins both keep them (the spec's "admins"), but only
 * a workspace admin's holiday skips standups: a Celebrations admin manages Celebrations, and their holidays move the
 * celebrations post alone. Who writes decides the holiday's skips_standups, so the role is checked here.
 */

type Session = { teamId: string; userId: string; role: string };

/** Who the caller is for holidays; a 403 for someone who is neither kind of admin. */
async function authorOf(deps: Pick<Deps, "db">, session: Session): Promise<HolidayAuthor> {
  await requireManager(deps, session);
  return session.role === "admin" ? "workspace-admin" : "celebrations-admin";
}

export async function listHolidayViews(deps: Pick<Deps, "db">, teamId: string) {
  const list = await listHolidays(deps.db, teamId);
  return list.map((h) => ({ date: h.date, name: h.name, skips_standups: h.skipsStandups }));
}

export async function addHoliday(
  deps: Pick<Deps, "db">,
  session: Session,
  h: { date: string; name: string },
): Promise<{ created: boolean; holiday: { date: string; name: string } }> {
  const by = await authorOf(deps, session);
  const out = await deps.db.transaction((tx) => putHoliday(tx, session.teamId, h, by));
  if (out === "full") throw badRequest(`date: a workspace may keep at most ${MAX_HOLIDAYS} holidays`);
  return { created: out.outcome === "created", holiday: h };
}

export async function removeHoliday(deps: Pick<Deps, "db">, session: Session, date: string): Promise<{ ok: true }> {
  if (!isRealDate(date)) throw badRequest("date must be a real date as YYYY-MM-DD");
  const by = await authorOf(deps, session);
  const out = await deleteHoliday(deps.db, session.teamId, date, by);
  if (out === "missing") throw notFound("No holiday on that date");
  // Standups skip it: taking it away would make every standup run that day, which is a workspace admin's call.
  if (out === "skips-standups") throw forbidden();
  return { ok: true };
}

export interface ImportRow {
  line: number;
  date: string;
  name: string;
  status: "ready" | "renamed" | "unchanged" | "invalid";
  skips_standups: boolean | null;
  error: string | null;
}

type Parsed = { record: string[]; info: { lines: number } };

function parseCsv(csv: string): Parsed[] {
  try {
    return parse(csv, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      to: MAX_IMPORT_ROWS + 2,
    }) as unknown as Parsed[];
  } catch (err) {
    throw badRequest(`csv could not be read: ${err instanceof Error ? err.message : "malformed CSV"}`);
  }
}

/**
 * Parses a holiday CSV (header `date,name`; BOM, CRLF and quoted commas allowed) and checks each row; each row follows
 * the rule of adding one holiday (a workspace admin's rows skip standups, a Celebrations admin's new ones do not).
 */
export async function importHolidays(
  deps: Pick<Deps, "db">,
  session: Session,
  input: { csv: string; preview?: boolean | undefined },
) {
  const by = await authorOf(deps, session);
  const [header, ...records] = parseCsv(input.csv);
  const cols = (header?.record ?? []).map((c) => c.trim().toLowerCase());
  if (cols.length < 2 || cols[0] !== "date" || cols[1] !== "name") {
    throw badRequest("csv must start with the header date,name");
  }
  if (records.length > MAX_IMPORT_ROWS) throw badRequest(`csv may have at most ${MAX_IMPORT_ROWS} rows`);
  const existing = new Map((await listHolidays(deps.db, session.teamId)).map((h) => [h.date, h]));
  const seen = new Map<string, number>();
  /** Rows to write: new, renamed, or (by a workspace admin) a Celebrations-only holiday that now skips standups. */
  const toWrite: ImportRow[] = [];
  const out: ImportRow[] = records.map(({ record, info }) => {
    const date = (record[0] ?? "").trim();
    const name = (record[1] ?? "").trim();
    const row = { line: info.lines, date, name };
    const invalid = (error: string): ImportRow => ({ ...row, status: "invalid", skips_standups: null, error });
    if (record.length > 2 && record.slice(2).some((c) => c.trim() !== "")) {
      return invalid("too many columns (date,name)");
    }
    if (!isRealDate(date)) return invalid("date must be a real date as YYYY-MM-DD");
    const nameProblem = holidayNameProblem(name);
    if (nameProblem) return invalid(nameProblem);
    const first = seen.get(date);
    if (first !== undefined) return invalid(`date repeats line ${first}`);
    seen.set(date, info.lines);
    const before = existing.get(date);
    const skips = by === "workspace-admin" || (before?.skipsStandups ?? false);
    const status = before === undefined ? "ready" : before.name === name ? "unchanged" : "renamed";
    const checked: ImportRow = { ...row, status, skips_standups: skips, error: null };
    if (status !== "unchanged" || skips !== before?.skipsStandups) toWrite.push(checked);
    return checked;
  });
  const count = (s: ImportRow["status"]) => out.filter((r) => r.status === s).length;
  const preview = input.preview ?? true;
  let written = 0;
  if (!preview && toWrite.length > 0) {
    const list = toWrite.map((r) => ({ date: r.date, name: r.name }));
    const ok = await deps.db.transaction((tx) => putHolidays(tx, session.teamId, list, by));
    if (!ok) throw badRequest(`csv would take the workspace past ${MAX_HOLIDAYS} holidays`);
    written = toWrite.length;
  }
  return {
    preview,
    ready: count("ready"),
    renamed: count("renamed"),
    unchanged: count("unchanged"),
    invalid: count("invalid"),
    written,
    rows: out,
  };
}
