/**
 * Compact summary of a V8 .cpuprofile: self time by area (package, src/ folder, node internals, GC) and
 * by function, and inclusive time of src/ functions. `npx tsx bench/seed/profile.ts <file> [top-n]`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
}

function area({ url, functionName }: CallFrame): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
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
  return `${name} ${frame.url.replace(/^file:\/\/.*?\/(node_modules|src|bench)\//, "$1/")}:${frame.lineNumber + 1}`;
}

function top(map: Map<string, number>, total: number, n: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([k, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`,
    );
}

export function summarizeProfile(profile: CpuProfile, n = 12): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    byArea.set(area(frame), (byArea.get(area(frame)) ?? 0) + us);
    byFunction.set(label(frame), (byFunction.get(label(frame)) ?? 0) + us);
  }
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      if (!/\/src\//.test(frame.url)) continue;
      const key = label(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const idle = byArea.get("(idle)") ?? 0;
  return [
    `profile: ${(total / 1000).toFixed(0)} ms sampled, ${((idle / total) * 100).toFixed(1)}% idle`,
    "self time by area:",
    ...top(byArea, total, n).map((l) => `  ${l}`),
    "self time by function:",
    ...top(byFunction, total, n).map((l) => `  ${l}`),
    "inclusive time of src/ functions:",
    ...top(inclusive, total, n).map((l) => `  ${l}`),
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: npx tsx bench/seed/profile.ts <file.cpuprofile> [top-n]\n");
    process.exit(2);
  }
  process.stdout.write(
    `${summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, Number(process.argv[3] ?? 12))}\n`,
  );
}
