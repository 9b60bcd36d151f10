/** Readings from /proc for the benchmark runners (Linux; undefined elsewhere). */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second, the unit of /proc/<pid>/stat CPU times. */
const clkTck = (() => {
  const out = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  const n = Number(out.stdout?.trim());
  return out.status === 0 && Number.isInteger(n) && n > 0 ? n : 100;
})();

/** User + system CPU time of a process (all its threads), in ms; undefined without /proc or without a pid. */
export function cpuMs(pid: number | string | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clkTck;
  } catch {
    return undefined;
  }
}

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM); undefined without /proc. */
export function procStatusKb(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
