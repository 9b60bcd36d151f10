/**
 * A small RFC 4180 parser, to read back what the CSV export wrote. A leading byte order mark is skipped, as
 * spreadsheets and csv-parse skip it (tests that care assert the bytes themselves).
 */
export function parseCsv(text: string): string[][] {
  if (text.startsWith("\ufeff")) text = text.slice(1);
  const out: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      out.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return out;
}
