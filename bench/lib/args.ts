/** Command-line option checks shared by the benchmark runners. */

/** `raw` as a positive integer, or a message naming `--name` and exit code 2. */
export function positiveInt(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`--${name} must be a positive integer (got ${raw})\n`);
    process.exit(2);
  }
  return n;
}
