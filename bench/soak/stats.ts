/**
 * What the soak counts: per route, every answer with its latency, the unexpected ones (errors) and 5xx;
 * the HTTP client the load goes through (undici, keep-alive, open loop: a request is sent at its time
 * whatever is still in flight) and the checks of an answer.
 */
import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { fmtMs, percentiles, table } from "../seed/harness.ts";

export interface RouteStats {
  /** HTTP routes count towards the request totals; the others (a run's ask DMs) are checks of background work. */
  readonly http: boolean;
  count: number;
  errors: number;
  fiveXx: number;
  /** Latencies after warm-up (cold start and JIT are not what a soak looks at); of every run for the run checks. */
  readonly latencies: number[];
}

/** Why an answer is unexpected, or undefined when it is what the request kind expects. */
export type Check = (status: number, text: string) => string | undefined;

export function expectStatus(status: number, also?: (text: string) => string | undefined): Check {
  return (got, text) => (got !== status ? `status ${got} (expected ${status})` : also?.(text));
}

export class Recorder {
  readonly routes = new Map<string, RouteStats>();
  /** Error descriptions by route and reason, with counts. */
  readonly reasons = new Map<string, number>();
  requests = 0;
  errors = 0;
  fiveXx = 0;
  /** Set when the warm-up ends: from then on latencies are kept for the percentiles. */
  warm = false;

  #route(name: string, http: boolean): RouteStats {
    let r = this.routes.get(name);
    if (!r) {
      r = { http, count: 0, errors: 0, fiveXx: 0, latencies: [] };
      this.routes.set(name, r);
    }
    return r;
  }

  /** One answer (or one check of background work when http is false); `problem` makes it an error. */
  record(name: string, ms: number, problem: string | undefined, status?: number, http = true): void {
    const r = this.#route(name, http);
    r.count += 1;
    // Runs are few: each one's time counts, also during warm-up.
    if (this.warm || !http) r.latencies.push(ms);
    if (http) this.requests += 1;
    if (status !== undefined && status >= 500) {
      r.fiveXx += 1;
      this.fiveXx += 1;
    }
    if (problem !== undefined) {
      r.errors += 1;
      this.errors += 1;
      const key = `${name}: ${problem}`;
      this.reasons.set(key, (this.reasons.get(key) ?? 0) + 1);
    }
  }

  /** Per route: count, errors and 5xx of the whole run, p50, p99 and max after warm-up; HTTP routes first, by name. */
  table(): string {
    const names = [...this.routes.keys()].sort((a, b) => {
      const ha = this.routes.get(a)!.http ? 0 : 1;
      const hb = this.routes.get(b)!.http ? 0 : 1;
      return ha - hb || a.localeCompare(b);
    });
    const body = names.map((name) => {
      const r = this.routes.get(name)!;
      const [p50, p99, max] = percentiles(r.latencies, 0.5, 0.99, 1);
      return [
        r.http ? name : `${name} (not HTTP)`,
        String(r.count),
        String(r.errors),
        String(r.fiveXx),
        fmtMs(p50!),
        fmtMs(p99!),
        fmtMs(max!),
      ];
    });
    return table(["route", "count", "errors", "5xx", "p50 ms", "p99 ms", "max ms"], body);
  }
}

export interface Request {
  method: "GET" | "POST" | "DELETE";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Past this many requests in flight the load generator drops new ones (counted as errors): the app is not keeping up. */
const MAX_IN_FLIGHT = 256;
const TIMEOUT_MS = 30_000;

export class AppClient {
  readonly #pool: Pool;
  inFlight = 0;

  constructor(
    port: number,
    private readonly recorder: Recorder,
  ) {
    this.#pool = new Pool(`http://127.0.0.1:${port}`, {
      connections: 64,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
  }

  /**
   * Sends req and records it under `route`: latency from sending to the last byte of the body; an error when
   * `check` objects, on a transport error or a timeout. Resolves with the answer (undefined after a failure).
   */
  async send(route: string, req: Request, check: Check): Promise<{ status: number; text: string } | undefined> {
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.recorder.record(route, 0, `dropped: ${MAX_IN_FLIGHT} requests already in flight`);
      return undefined;
    }
    this.inFlight += 1;
    const t0 = performance.now();
    try {
      const res = await this.#pool.request({
        method: req.method,
        path: req.path,
        headers: req.headers ?? {},
        ...(req.body !== undefined ? { body: req.body } : {}),
      });
      const text = await res.body.text();
      const ms = performance.now() - t0;
      this.recorder.record(route, ms, check(res.statusCode, text), res.statusCode);
      return { status: res.statusCode, text };
    } catch (err) {
      const code = (err as { code?: string }).code;
      this.recorder.record(route, performance.now() - t0, `transport error ${code ?? String(err).slice(0, 80)}`);
      return undefined;
    } finally {
      this.inFlight -= 1;
    }
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}
