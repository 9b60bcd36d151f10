// Minimal types for the parts of autocannon 9 the ack and insights benchmarks use (the package ships none).
// An ambient module declaration: tsconfig includes bench/, so every file in the program sees it.
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    [key: string]: unknown;
  }

  export interface Request extends RequestParams {
    /** Called before every request is sent; return the (modified) request, or a falsy value to reset. */
    setupRequest?: (req: RequestParams, context: Record<string, unknown>) => RequestParams | null | undefined;
  }

  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Stop after this many requests (instead of after `duration`). */
    amount?: number;
    /** Seconds. */
    timeout?: number;
    requests?: Request[];
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total?: number;
    p50: number;
    p90: number;
    p99: number;
    [key: string]: number | undefined;
  }

  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    resets: number;
    duration: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** Emits "response" (client, statusCode, bytes, responseTimeMs) for every response, and "done". */
  export interface Instance extends EventEmitter {
    stop(): void;
  }

  function autocannon(opts: Options, cb: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
