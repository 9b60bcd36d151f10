import { CsvError, parse } from "csv-parse/sync";
import type { z } from "zod";
import type { profileImportResult, profileImportRow } from "../../contract/index.ts";
import type { Executor } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { badRequest } from "../../http/errors.ts";
import { isBirthday, startDateProblem } from "./profiles.input.ts";
import {
  activeMembersByEmail,
  type ImportWrite,
  type ProfileRow,
  readProfiles,
  writeImportRows,
} from "./profiles.repo.ts";
import { latestStartDate } from "./profiles.service.ts";

export type ImportRow = z.output<typeof profileImportRow>;
export type ImportResult = z.output<typeof profileImportResult>;

/** At most this many data rows (the header not counted) in one import; more is a 400. */
export const MAX_IMPORT_ROWS = 5000;
export const IMPORT_COLUMNS = ["email", "birthday", "start_date"] as const;
const HEADER_MESSAGE = "csv: the first line must be the header email,birthday,start_date";

/** A data row as read: cells trimmed, nothing judged yet. */
interface CsvRow {
  line: number;
  cells: string[];
}

/** A row judged on its own (format, duplicates): what it would set, or why not. */
interface Parsed {
  line: number;
  email: string;
  error: string | null;
  birthday: { month: number; day: number } | null;
  startDate: string | null;
}

/** CSV text → header-checked rows. BOM, CRLF and quoted fields (commas, quotes, line breaks) are csv-parse's. */
export function readCsv(csv: string): CsvRow[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(csv, {
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      // The header, the most rows accepted and one more to tell "too many": the rest is never parsed.
      to: MAX_IMPORT_ROWS + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    if (err instanceof CsvError) throw badRequest(`csv: ${err.message}`);
    throw err;
  }
  const [header, ...data] = records;
  if (!header) throw badRequest(HEADER_MESSAGE);
  const names = header.record.map((c) => c.toLowerCase());
  if (names.length !== IMPORT_COLUMNS.length || names.some((n, i) => n !== IMPORT_COLUMNS[i])) {
    throw badRequest(HEADER_MESSAGE);
  }
  if (data.length > MAX_IMPORT_ROWS) {
    throw badRequest(`csv: at most ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows can be imported at once (got more)`);
  }
  return data.map((r) => ({ line: r.info.lines, cells: r.record }));
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const BIRTHDAY = /^(\d{1,2})-(\d{1,2})$/;

function judge(row: CsvRow, latest: string, seen: Map<string, number>): Parsed {
  const email = (row.cells[0] ?? "").toLowerCase();
  const parsed: Parsed = { line: row.line, email, error: null, birthday: null, startDate: null };
  const fail = (error: string) => ({ ...parsed, error });
  if (row.cells.length !== IMPORT_COLUMNS.length) {
    return fail(`expected ${IMPORT_COLUMNS.length} columns (email,birthday,start_date), got ${row.cells.length}`);
  }
  if (email === "") return fail("email is empty");
  const earlier = seen.get(email);
  if (earlier !== undefined) return fail(`email appears again: the row on line ${earlier} has it`);
  seen.set(email, row.line);
  if (!EMAIL.test(email) || email.length > 254) return fail("email is not an e-mail address");
  const birthday = row.cells[1] ?? "";
  if (birthday !== "") {
    const m = BIRTHDAY.exec(birthday);
    const month = Number(m?.[1]);
    const day = Number(m?.[2]);
    if (!m || !isBirthday(month, day)) return fail("birthday must be a real day as MM-DD, such as 02-29");
    parsed.birthday = { month, day };
  }
  const start = row.cells[2] ?? "";
  if (start !== "") {
    const why = startDateProblem(start);
    if (why) return fail(why);
    if (start > latest) return fail(`start_date must be at most a year from today (${latest} at the latest)`);
    parsed.startDate = start;
  }
  return parsed;
}

/**
 * What the row would do to the stored profile, date by date (an empty cell does nothing): a stored empty date is
 * filled, an admin-set one replaced, and a date the member set (`set_by_admin` false) replaced only with
 * `overwrite` — otherwise the row is `kept` (and then writes nothing at all). `write` holds the dates it may set
 * (null: leave).
 */
function plan(
  p: Parsed,
  existing: ProfileRow | undefined,
  overwrite: boolean,
): { write: Omit<ImportWrite, "userId"> | null; kept: boolean } {
  const mayReplace = overwrite || existing === undefined || existing.setByAdmin;
  let kept = false;
  let changes = false;
  // A date the row may set is written even when equal (so an overwrite makes it the admin's too).
  let birthday: Parsed["birthday"] = null;
  if (p.birthday !== null) {
    const differs = existing?.birthMonth !== p.birthday.month || existing?.birthDay !== p.birthday.day;
    if (existing?.birthMonth == null || mayReplace) {
      birthday = p.birthday;
      changes ||= differs;
    } else if (differs) kept = true;
  }
  let startDate: string | null = null;
  if (p.startDate !== null) {
    const differs = existing?.startDate !== p.startDate;
    if (existing?.startDate == null || mayReplace) {
      startDate = p.startDate;
      changes ||= differs;
    } else if (differs) kept = true;
  }
  const write = changes ? { birthMonth: birthday?.month ?? null, birthDay: birthday?.day ?? null, startDate } : null;
  return { write, kept };
}

/**
 * Reads, matches and judges every row; unless `preview`, writes the ready ones in one transaction, deciding
 * under a lock on the profiles concerned, so what it counts is what it wrote.
 */
export async function importProfiles(
  deps: Pick<Deps, "db" | "clock">,
  teamId: string,
  input: { csv: string; preview: boolean; overwrite: boolean },
): Promise<ImportResult> {
  const csvRows = readCsv(input.csv);
  const latest = await latestStartDate(deps, teamId);
  const seen = new Map<string, number>();
  const parsed = csvRows.map((r) => judge(r, latest, seen));

  const run = async (ex: Executor): Promise<ImportResult> => {
    const emails = [...new Set(parsed.filter((p) => p.error === null).map((p) => p.email))];
    const byEmail = new Map<string, string[]>();
    for (const m of await activeMembersByEmail(ex, teamId, emails)) {
      byEmail.set(m.email, [...(byEmail.get(m.email) ?? []), m.userId]);
    }
    const matchedIds = [...new Set([...byEmail.values()].filter((ids) => ids.length === 1).flat())];
    // Locked only when writing; a preview reads without holding anyone up.
    const existing = new Map(
      (await readProfiles(ex, teamId, matchedIds, { lock: !input.preview })).map((p) => [p.userId, p]),
    );
    const rows: ImportRow[] = [];
    const writes: ImportWrite[] = [];
    for (const p of parsed) {
      const row = (status: ImportRow["status"], userId: string | null, error: string | null = null) =>
        rows.push({ line: p.line, email: p.email, user_id: userId, status, error });
      if (p.error !== null) {
        row("invalid", null, p.error);
        continue;
      }
      const ids = byEmail.get(p.email) ?? [];
      if (ids.length === 0) {
        row("unmatched", null, "no active member has this e-mail address");
        continue;
      }
      if (ids.length > 1) {
        row("invalid", null, `${ids.length} active members have this e-mail address`);
        continue;
      }
      const userId = ids[0]!;
      const { write, kept } = plan(p, existing.get(userId), input.overwrite);
      // kept: the member's profile stays whole (the spec): not even an empty date of theirs is filled, so the
      // row is not written and not counted in `written`.
      row(kept ? "kept" : write ? "ready" : "unchanged", userId);
      if (write && !kept) writes.push({ userId, ...write });
    }
    const written =
      input.preview || writes.length === 0
        ? 0
        : await writeImportRows(ex, teamId, writes, input.overwrite, deps.clock.now());
    const count = (s: ImportRow["status"]) => rows.filter((r) => r.status === s).length;
    return {
      preview: input.preview,
      overwrite: input.overwrite,
      counts: {
        ready: count("ready"),
        unchanged: count("unchanged"),
        kept: count("kept"),
        unmatched: count("unmatched"),
        invalid: count("invalid"),
        written,
      },
      rows,
    };
  };
  return input.preview ? run(deps.db) : deps.db.transaction((tx) => run(tx));
}
