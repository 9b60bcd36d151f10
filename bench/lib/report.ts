/**
 * Number formats, plain text tables and percentiles of the benchmark reports. A module of its own (re-exported
 * by bench/seed/harness.ts) so a test can use them without the harness's signal handlers.
 */

export const fmtInt = (n: number): string => Math.round(n).toLocaleString("en-US");
export const fmtMs = (n: number): string => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : "-");

/** A plain text table: first column left-aligned, the rest right-aligned. */
export function table(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** Nearest-rank percentiles of a list of numbers. */
export function percentiles(values: Float64Array | number[], ...qs: number[]): number[] {
  const sorted = Float64Array.from(values).sort();
  return qs.map((q) =>
    sorted.length === 0
      ? Number.NaN
      : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!,
  );
}
