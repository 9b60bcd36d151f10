/** RFC 4180 CSV with a guard against formula injection when the file is opened in a spreadsheet. */
import { Transform } from "node:stream";

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
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
export function crlfRecords(): Transform {
  let quoted = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
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
