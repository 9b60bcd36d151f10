/** RFC 4180 CSV with a guard against formula injection when the file is opened in a spreadsheet. */
import { Transform } from "node:stream";

/**
 * The UTF-8 byte order mark every CSV starts with: without it Excel reads the file in the system's legacy code
 * page and shows "FernÃ¡ndez" and broken emoji. CSV parsers (csv-parse, Python's utf-8-sig, LibreOffice, Google
 * Sheets) skip it.
 */
export const CSV_BOM = "\ufeff";

/**
 * Which cells get a leading ' so a spreadsheet shows them as text rather than running them as a formula.
 *
 * Excel, LibreOffice and Google Sheets read a cell as a formula when it starts with = + - or @ (Excel also skips a
 * leading tab or CR first). A cell starting with = + @ tab or CR is always guarded. A leading - only makes a formula
 * when what follows parses as an expression, and plain text often starts with one ("-", "- item", "-- notes",
 * "-5"), so a dash-led cell is guarded only when:
 *  1. the dash is followed at once by something an operand can start with (a letter or digit: a name, a cell
 *     reference or a function as in -A1, -SUM(, -1+2; or ( $ " ' . { [ # @ + = and any non-ASCII character), unless
 *     the whole cell is a plain number (-5, -3.5, -1,000, -10%), which a spreadsheet shows as that number anyway; a
 *     space, another dash or punctuation that cannot start an operand (> < / * : , ; ! ? % & ) ^ | } ~ `) leaves it
 *     plain; or
 *  2. after its leading dashes and spaces it calls a function (- HYPERLINK(…), -- WEBSERVICE (…)); or
 *  3. it holds a DDE link (a | and later a !, as in - cmd|' /C calc'!A0): the payloads that reach outside the sheet.
 * So "-", "- item", "-- notes", "-> done" and "-5" stay as typed. ("-- 1+2" stays too: a spreadsheet may show 3,
 * but nothing runs.)
 *
 * One pattern, written in the syntax JavaScript (with the s flag) and PostgreSQL's regular expressions share, so
 * the COPY path (export.copy.ts) applies the very same rule: lookahead, (?: ), bracket classes with \t \r \n
 * escapes; no \s or \w (their meaning differs), "." matching a line feed in both.
 */
export const DASH_FORMULA =
  "^-(?:(?![0-9]+(?:[.,][0-9]+)*%?$)[^- \t\r\n!%&)*,/:;<>?^|}~`]" +
  "|[- \t\r\n]*[A-Za-z_\\\\][A-Za-z0-9_.]*[ \t\r\n]*\\(" +
  "|.*\\|.*!)";
const DASH_FORMULA_RE = new RegExp(DASH_FORMULA, "s");

/** Whether a spreadsheet could run this cell as a formula (see DASH_FORMULA for the rule and why). */
export function looksLikeFormula(s: string): boolean {
  const c = s.charCodeAt(0);
  // = + @ tab CR
  if (c === 61 || c === 43 || c === 64 || c === 9 || c === 13) return true;
  return c === 45 && DASH_FORMULA_RE.test(s);
}

export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? "" : String(value);
  if (looksLikeFormula(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

const LF = 10;
const QUOTE = 34;

/**
 * CSV as PostgreSQL's COPY (FORMAT csv) writes it, with CRLF line endings as csvLine writes them: a CR goes before
 * every LF that ends a record, none before an LF inside a quoted cell. COPY writes a " only to open or close a
 * quoted cell or doubled inside one, so each " toggles "inside quotes"; the state carries across chunks.
 */
export function crlfRecords(prefix = ""): Transform {
  let quoted = false;
  // Sent before the first byte (the BOM), or alone at the end of an empty stream.
  let pending = prefix ? Buffer.from(prefix, "utf8") : undefined;
  return new Transform({
    flush(done) {
      done(null, pending);
    },
    transform(chunk: Buffer, _encoding, done) {
      if (pending) {
        this.push(pending);
        pending = undefined;
      }
      const ends: number[] = [];
      const len = chunk.length;
      let pos = 0;
      // The next " and LF at or after pos; -2: not looked for yet, -1: none in this chunk.
      let q = -2;
      let nl = -2;
      while (pos < len) {
        if (quoted) {
          const close = chunk.indexOf(QUOTE, pos);
          if (close === -1) break;
          quoted = false;
          pos = close + 1;
          continue;
        }
        if (q !== -1 && q < pos) q = chunk.indexOf(QUOTE, pos);
        if (nl !== -1 && nl < pos) nl = chunk.indexOf(LF, pos);
        if (nl !== -1 && (q === -1 || nl < q)) {
          ends.push(nl);
          pos = nl + 1;
        } else if (q !== -1) {
          quoted = true;
          pos = q + 1;
        } else break;
      }
      if (ends.length === 0) return done(null, chunk);
      const out = Buffer.allocUnsafe(len + ends.length);
      let from = 0;
      let at = 0;
      for (const end of ends) {
        at += chunk.copy(out, at, from, end);
        out[at++] = 13;
        out[at++] = LF;
        from = end + 1;
      }
      chunk.copy(out, at, from, len);
      done(null, out);
    },
  });
}
