/** Summary of a V8 .cpuprofile taken by instance.ts: self time by area and by function, inclusive time in src/. */

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
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** A package, Upbeat's own directory, Node internals or a V8 pseudo-frame such as (garbage collector). */
function area(frame: CallFrame): string {
  const { url, functionName } = frame;
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
  const short = frame.url.replace(/^file:\/\/.*?\/(node_modules|src|bench|test)\//, "$1/");
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

export function summarizeProfile(profile: CpuProfile, n = 12): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const us = deltas[i + 1] ?? 0;
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + us);
  }
  let total = 0;
  let idle = 0;
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusiveOwn = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    total += us;
    if (frame.functionName === "(idle)") idle += us;
    byArea.set(area(frame), (byArea.get(area(frame)) ?? 0) + us);
    byFunction.set(label(frame), (byFunction.get(label(frame)) ?? 0) + us);
    // Inclusive time of our own functions: every distinct src/ frame on the stack gets the sample.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (!/\/src\//.test(f.url)) continue;
      // tsx's compiled line numbers do not match the source: name and file only.
      const l = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*?\/src\//, "src/")}`;
      if (seen.has(l)) continue;
      seen.add(l);
      inclusiveOwn.set(l, (inclusiveOwn.get(l) ?? 0) + us);
    }
  }
  const busy = total - idle;
  return [
    `sampled ${(total / 1000).toFixed(0)} ms, of which idle ${((idle / Math.max(total, 1)) * 100).toFixed(0)}%`,
    "self time by area (share of all samples):",
    ...top(byArea, total, n).map((l) => `  ${l}`),
    "self time by function:",
    ...top(byFunction, total, n).map((l) => `  ${l}`),
    `inclusive time of src/ functions (synchronous stacks only: work after an await is not counted; share of ${(busy / 1000).toFixed(0)} ms busy):`,
    ...top(inclusiveOwn, Math.max(busy, 1), n).map((l) => `  ${l}`),
  ].join("\n");
}
