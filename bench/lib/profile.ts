/**
 * Summary of a V8 .cpuprofile: self time by area (package, Upbeat's own folder, node internals, WASM,
 * V8 pseudo-frames such as GC) and by function, and inclusive time of Upbeat's own (src/) functions.
 * Shared by the ack, fanout, insights and export benchmarks. Usable on its own:
 * `npx tsx bench/lib/profile.ts <file.cpuprofile> [top-n]`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime?: number;
  endTime?: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Where a frame belongs: a package, Upbeat's own code, Node internals, WASM or a V8 pseudo-frame. */
export function area(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("wasm://")) return "pglite wasm";
  if (url.startsWith("node:")) return "node internals";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(src|bench|test)\/(.*)$/.exec(url);
  if (own) return `${own[1]}/${own[2]!.split("/").slice(0, -1).join("/") || "."}`;
  return url;
}

function label(frame: CallFrame): string {
  const name = frame.functionName || "(anonymous)";
  if (!frame.url) return name;
  const short = frame.url
    .replace(/^file:\/\/.*?\/(node_modules|src|bench|test)\//, "$1/")
    .replace(/^wasm:\/\/wasm\//, "wasm:");
  return `${name} ${short}:${frame.lineNumber + 1}`;
}

function top(map: Map<string, number>, total: number, n: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`,
    );
}

interface Tally {
  /** All sampled time, in µs. */
  total: number;
  idle: number;
  byArea: Map<string, number>;
  byFunction: Map<string, number>;
  /** Inclusive time of src/ functions (counted once per stack even when recursive), keyed by `key`. */
  inclusive: Map<string, number>;
}

function tally(profile: CpuProfile, key: (frame: CallFrame) => string): Tally {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // A sample's time is the gap to the next one (V8 records the gap before each sample).
    const us = deltas[i + 1] ?? 0;
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + us);
  }
  let total = 0;
  let idle = 0;
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    total += us;
    if (frame.functionName === "(idle)") idle += us;
    byArea.set(area(frame), (byArea.get(area(frame)) ?? 0) + us);
    byFunction.set(label(frame), (byFunction.get(label(frame)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      if (!/\/src\//.test(f.url)) continue;
      const k = key(f);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  return { total, idle, byArea, byFunction, inclusive };
}

/** The summary printed by the ack, insights and export benchmarks: all shares are of all sampled time. */
export function summarizeProfile(profile: CpuProfile, n = 15): string {
  const t = tally(profile, label);
  const total = t.total || 1;
  return [
    `profile: ${(t.total / 1000).toFixed(0)} ms sampled, ${((t.idle / total) * 100).toFixed(1)}% idle`,
    "self time by area:",
    ...top(t.byArea, total, n).map((l) => `  ${l}`),
    "self time by function:",
    ...top(t.byFunction, total, n).map((l) => `  ${l}`),
    "inclusive time of src/ functions:",
    ...top(t.inclusive, total, n).map((l) => `  ${l}`),
  ].join("\n");
}

/**
 * The fanout benchmark's summary: inclusive time as a share of busy (non-idle) time, and keyed by name
 * and file only, because tsx's compiled line numbers do not match the source.
 */
export function summarizeProfileBusy(profile: CpuProfile, n = 12): string {
  const t = tally(profile, (f) => `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*?\/src\//, "src/")}`);
  const busy = t.total - t.idle;
  return [
    `sampled ${(t.total / 1000).toFixed(0)} ms, of which idle ${((t.idle / Math.max(t.total, 1)) * 100).toFixed(0)}%`,
    "self time by area (share of all samples):",
    ...top(t.byArea, t.total, n).map((l) => `  ${l}`),
    "self time by function:",
    ...top(t.byFunction, t.total, n).map((l) => `  ${l}`),
    `inclusive time of src/ functions (synchronous stacks only: work after an await is not counted; share of ${(busy / 1000).toFixed(0)} ms busy):`,
    ...top(t.inclusive, Math.max(busy, 1), n).map((l) => `  ${l}`),
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: npx tsx bench/lib/profile.ts <file.cpuprofile> [top-n]\n");
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  process.stdout.write(`${summarizeProfile(profile, Number(process.argv[3] ?? 15))}\n`);
}
