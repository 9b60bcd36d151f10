/**
 * The measuring half of bench:mcp, independent of how the app runs (a pinned child in run.ts, in-process in
 * the smoke test): API keys made the way the product makes them, the scenarios (JSON-RPC `ping` as the
 * baseline, then every tool of tools/list with realistic arguments), a probe that checks each answer is a
 * success, sequential and concurrent measurements, and the report.
 */
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { createKey } from "../../src/features/mcp-keys/index.ts";
import { systemClock } from "../../src/lib/clock.ts";
import { fmtMs, percentiles, table } from "../lib/report.ts";

/** Small tools must answer within this multiple of ping's p50 (sequential, warm). */
export const TARGET_RATIO = 2;
export const ACCEPT = "application/json, text/event-stream";
/** Occurs in the seeded answers ("Deployed …"; English stemming matches deploy/deployed). */
export const SEARCH_TERM = "deploy";

export interface Scenario {
  /** Row label: the tool name, with "(team)" for a team-wide variant. */
  label: string;
  method: "ping" | "tools/list" | "tools/call";
  tool?: string;
  args?: Record<string, unknown>;
  /** "baseline" (ping), "small" (one member or a bounded list: target p50 ≤ 2 × ping) or "report". */
  kind: "baseline" | "small" | "report";
}

/**
 * Every tool of the server's tools/list gets a scenario; `toolNames` is that list, so a tool added to the
 * server without a scenario here makes the probe fail instead of being skipped silently.
 * Small: the member-scoped reads (one member's rows over 30 days or today). Report: whole-workspace reads
 * (all members, workspace stats, team-wide full-text search, team-wide aggregates) and get_kudos (the seed
 * has no kudos, so its number says little).
 */
export function scenarios(userId: string, today: string, scheduleId: string): Scenario[] {
  const from30 = shiftDate(today, -29);
  return [
    { label: "ping", method: "ping", kind: "baseline" },
    { label: "tools/list", method: "tools/list", kind: "report" },
    {
      label: "get_standups",
      method: "tools/call",
      tool: "get_standups",
      args: { user_id: userId, from_date: from30, to_date: today },
      kind: "small",
    },
    {
      label: "get_today_standups",
      method: "tools/call",
      tool: "get_today_standups",
      args: { user_id: userId },
      kind: "small",
    },
    {
      label: "get_blockers",
      method: "tools/call",
      tool: "get_blockers",
      args: { user_id: userId, days: 30 },
      kind: "small",
    },
    {
      label: "get_participation",
      method: "tools/call",
      tool: "get_participation",
      args: { user_id: userId, days: 30 },
      kind: "small",
    },
    {
      label: "get_mood_summary",
      method: "tools/call",
      tool: "get_mood_summary",
      args: { user_id: userId, days: 30 },
      kind: "small",
    },
    { label: "get_kudos", method: "tools/call", tool: "get_kudos", args: { days: 30 }, kind: "report" },
    {
      label: "get_question_stats",
      method: "tools/call",
      tool: "get_question_stats",
      args: { standup_id: scheduleId, days: 30 },
      kind: "report",
    },
    {
      label: "get_summary",
      method: "tools/call",
      tool: "get_summary",
      args: { schedule_id: scheduleId },
      kind: "report",
    },
    { label: "get_members", method: "tools/call", tool: "get_members", args: {}, kind: "report" },
    { label: "get_workspace_summary", method: "tools/call", tool: "get_workspace_summary", args: {}, kind: "report" },
    {
      label: "search_standups (team)",
      method: "tools/call",
      tool: "search_standups",
      args: { query: SEARCH_TERM, days: 30 },
      kind: "report",
    },
    { label: "get_blockers (team)", method: "tools/call", tool: "get_blockers", args: { days: 30 }, kind: "report" },
    {
      label: "get_participation (team)",
      method: "tools/call",
      tool: "get_participation",
      args: { days: 30 },
      kind: "report",
    },
    {
      label: "get_mood_summary (team)",
      method: "tools/call",
      tool: "get_mood_summary",
      args: { days: 30 },
      kind: "report",
    },
  ];
}

export function shiftDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function rpcBody(s: Scenario, id: number | string = 1): string {
  const params = s.method === "tools/call" ? { name: s.tool, arguments: s.args ?? {} } : {};
  return JSON.stringify({ jsonrpc: "2.0", id, method: s.method, params });
}

/**
 * `n` live API keys of the workspace, created by the mcp-keys feature (only their SHA-256 is stored). The
 * endpoint allows 120 requests a minute per key; the bench rotates over the keys (like many assistants
 * connected at once) so it measures the endpoint, not the 429 path.
 */
export async function createBenchKeys(
  target: string | Database,
  teamId: string,
  adminUserId: string,
  n: number,
): Promise<string[]> {
  const database = typeof target === "string" ? await openDatabase(target, { poolMax: 4 }) : target;
  try {
    const keys: string[] = [];
    const deps = { db: database.db, clock: systemClock };
    for (let i = 0; i < n; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, (_, j) =>
          createKey(deps, teamId, adminUserId, { name: `bench ${i + j + 1}` }),
        ),
      );
      keys.push(...batch.map((k) => k.key));
    }
    return keys;
  } finally {
    if (typeof target === "string") await database.close();
  }
}

/** Round-robin over the keys, shared by every measurement of a run. */
export class KeyRing {
  private next = 0;
  constructor(readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error("no API keys");
  }
  take(): string {
    return this.keys[this.next++ % this.keys.length]!;
  }
}

interface RpcAnswer {
  status: number;
  text: string;
}

async function post(port: number, key: string, body: string): Promise<RpcAnswer> {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, authorization: `Bearer ${key}` },
    body,
  });
  return { status: res.status, text: await res.text() };
}

export interface Probe {
  scenario: Scenario;
  bytes: number;
  ms: number;
  /** What the answer holds, for the log ("12 standups", "25 results"…). */
  summary: string;
  /** Why the answer is not a success; undefined when it is. */
  problem?: string;
}

function describeResult(s: Scenario, sc: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of ["count", "truncated", "overall_pct", "overall_avg", "total_members", "submitted_today"]) {
    if (k in sc) parts.push(`${k} ${String(sc[k])}`);
  }
  for (const k of ["standups", "results", "blockers", "daily", "members", "kudos"]) {
    if (Array.isArray(sc[k])) parts.push(`${(sc[k] as unknown[]).length} ${k}`);
  }
  return parts.join(", ") || s.label;
}

/** One call, checked: HTTP 200, a JSON-RPC result, and for tools no isError and a structuredContent. */
export async function probe(port: number, key: string, s: Scenario, toolNames?: readonly string[]): Promise<Probe> {
  const t = performance.now();
  const { status, text } = await post(port, key, rpcBody(s, `probe-${s.label}`));
  const ms = performance.now() - t;
  const out: Probe = { scenario: s, bytes: Buffer.byteLength(text), ms, summary: "" };
  if (status !== 200) return { ...out, problem: `HTTP ${status}: ${text.slice(0, 300)}` };
  let body: { result?: Record<string, unknown>; error?: { code: number; message: string } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return { ...out, problem: `not JSON: ${text.slice(0, 300)}` };
  }
  if (body.error) return { ...out, problem: `JSON-RPC error ${body.error.code}: ${body.error.message}` };
  const result = body.result;
  if (!result) return { ...out, problem: "no result" };
  if (s.method === "ping") return { ...out, summary: "{}" };
  if (s.method === "tools/list") {
    const names = ((result.tools as { name: string }[] | undefined) ?? []).map((x) => x.name);
    return { ...out, summary: `${names.length} tools: ${names.join(", ")}` };
  }
  if (result.isError) {
    const content = result.content as { text?: string }[] | undefined;
    return { ...out, problem: `tool error: ${content?.[0]?.text ?? JSON.stringify(result).slice(0, 300)}` };
  }
  const sc = result.structuredContent as Record<string, unknown> | undefined;
  if (!sc) return { ...out, problem: "no structuredContent" };
  if (s.tool === "search_standups" && sc.count === 0) {
    return { ...out, problem: `search for "${String(s.args?.query)}" found nothing: not a realistic search` };
  }
  if (toolNames && s.tool && !toolNames.includes(s.tool)) return { ...out, problem: `${s.tool} is not in tools/list` };
  return { ...out, summary: describeResult(s, sc) };
}

/** Problems when the server lists a tool the scenarios do not cover (it would go unmeasured). */
export function uncovered(toolNames: readonly string[], list: readonly Scenario[]): string[] {
  return toolNames
    .filter((name) => !list.some((s) => s.tool === name))
    .map((name) => `tools/list has ${name}, the bench has no scenario for it`);
}

/** The tool names the server lists (tools/list), checked. */
export async function listTools(port: number, key: string): Promise<string[]> {
  const { status, text } = await post(port, key, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  if (status !== 200) throw new Error(`tools/list answered ${status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { result?: { tools?: { name: string }[] } };
  return (body.result?.tools ?? []).map((t) => t.name);
}

export interface Sequential {
  latencies: number[];
  /** With opts.baseline: the baseline's latencies, measured in turn with the scenario's. */
  baseline?: number[];
  bad: number;
  seconds: number;
}

/**
 * `warmup` calls, then up to `calls` calls one after the other (stopping early after `maxSeconds`), each
 * timed from sending to the last byte of the answer. With `baseline` (ping), every call of the scenario is
 * paired with one of the baseline, in alternating order, so both see the same background load: on a shared
 * machine the load drifts between scenarios measured one after the other. Answers other than HTTP 200 are
 * counted as bad.
 */
export async function sequential(
  port: number,
  ring: KeyRing,
  s: Scenario,
  opts: {
    warmup: number;
    calls: number;
    maxSeconds: number;
    baseline?: Scenario;
    onMeasureStart?: () => Promise<void>;
  },
): Promise<Sequential> {
  const body = rpcBody(s);
  const baseBody = opts.baseline ? rpcBody(opts.baseline) : undefined;
  let bad = 0;
  const timed = async (b: string, into: number[]) => {
    const t = performance.now();
    const { status } = await post(port, ring.take(), b);
    into.push(performance.now() - t);
    if (status !== 200) bad++;
  };
  const scratch: number[] = [];
  for (let i = 0; i < opts.warmup; i++) {
    await timed(body, scratch);
    if (baseBody) await timed(baseBody, scratch);
  }
  await opts.onMeasureStart?.();
  const latencies: number[] = [];
  const baseline: number[] = [];
  const start = performance.now();
  const end = start + opts.maxSeconds * 1000;
  for (let i = 0; i < opts.calls && (i === 0 || performance.now() < end); i++) {
    const baseFirst = i % 2 === 1;
    if (baseBody && baseFirst) await timed(baseBody, baseline);
    await timed(body, latencies);
    if (baseBody && !baseFirst) await timed(baseBody, baseline);
  }
  return { latencies, ...(baseBody ? { baseline } : {}), bad, seconds: (performance.now() - start) / 1000 };
}

export interface Concurrent {
  latencies: number[];
  rps: number;
  bad: number;
  statusCodes: Record<string, { count: number }>;
}

/**
 * autocannon: `connections` keep-alive connections for `run.seconds` (or for `run.amount` requests), each
 * request with the next key.
 */
export function concurrent(
  port: number,
  ring: KeyRing,
  s: Scenario,
  connections: number,
  run: { seconds: number } | { amount: number },
): Promise<Concurrent> {
  const body = rpcBody(s);
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        ...("amount" in run ? { amount: run.amount } : { duration: run.seconds }),
        timeout: 30,
        requests: [
          {
            method: "POST",
            path: "/mcp",
            body,
            setupRequest: (req) => ({
              ...req,
              headers: {
                ...req.headers,
                "content-type": "application/json",
                accept: ACCEPT,
                authorization: `Bearer ${ring.take()}`,
              },
            }),
          },
        ],
      },
      (err, r) =>
        err
          ? reject(err)
          : resolve({
              latencies,
              rps: r["2xx"] / r.duration,
              bad: r.non2xx + r.errors + r.timeouts,
              statusCodes: r.statusCodeStats,
            }),
    );
    instance.on("response", (_c: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  });
}

export interface Measured {
  scenario: Scenario;
  bytes: number;
  seq: Sequential;
  conc?: Concurrent;
}

export interface Verdict {
  label: string;
  ratio: number;
  pass: boolean;
}

/** p50 of a scenario over ping's p50: the ping calls paired with it when there are, else the ping run's. */
export function ratioToPing(m: Measured, measured: readonly Measured[]): number {
  const ping = m.seq.baseline ?? measured.find((x) => x.scenario.kind === "baseline")?.seq.latencies;
  if (!ping || ping.length === 0) throw new Error("no ping baseline measured");
  return percentiles(m.seq.latencies, 0.5)[0]! / percentiles(ping, 0.5)[0]!;
}

/** PASS/FAIL for the small tools: p50 ≤ TARGET_RATIO × ping's p50. */
export function verdicts(measured: Measured[]): Verdict[] {
  return measured
    .filter((m) => m.scenario.kind === "small")
    .map((m) => {
      const ratio = ratioToPing(m, measured);
      return { label: m.scenario.label, ratio, pass: ratio <= TARGET_RATIO };
    });
}

export function report(measured: Measured[], connections: number): string {
  const rows = measured.map((m) => {
    const [p50, p99] = percentiles(m.seq.latencies, 0.5, 0.99);
    const [cp50, cp99] = m.conc ? percentiles(m.conc.latencies, 0.5, 0.99) : [Number.NaN, Number.NaN];
    const [pingP50] = m.seq.baseline ? percentiles(m.seq.baseline, 0.5) : [Number.NaN];
    const ratio = m.scenario.kind === "baseline" ? 1 : ratioToPing(m, measured);
    const verdict =
      m.scenario.kind === "small"
        ? ratio <= TARGET_RATIO
          ? "PASS"
          : "FAIL"
        : m.scenario.kind === "baseline"
          ? "-"
          : "report";
    return [
      m.scenario.label,
      m.scenario.kind,
      m.bytes.toLocaleString("en-US"),
      String(m.seq.latencies.length),
      fmtMs(p50!),
      fmtMs(p99!),
      fmtMs(pingP50!),
      ratio.toFixed(2),
      verdict,
      m.conc ? m.conc.rps.toFixed(0) : "-",
      fmtMs(cp50!),
      fmtMs(cp99!),
    ];
  });
  return table(
    [
      "scenario",
      "kind",
      "bytes",
      "calls",
      "p50 ms",
      "p99 ms",
      "ping p50",
      "× ping",
      `≤${TARGET_RATIO}×`,
      `c=${connections} req/s`,
      "p50 ms",
      "p99 ms",
    ],
    rows,
  );
}
