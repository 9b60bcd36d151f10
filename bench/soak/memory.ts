/**
 * The app's memory during the soak: VmRSS from /proc/<pid>/status and process.memoryUsage() over the child's
 * IPC channel, sampled every few seconds; forced full GCs (the child runs with --expose-gc) whose heap is the
 * retained heap; RSS medians over a window; the samples as CSV for plotting.
 */
import { writeFileSync } from "node:fs";
import { type AppChild, askApp, procStatusKb } from "../seed/harness.ts";

export interface Sample {
  /** ms since the soak started. */
  t: number;
  rss?: number;
  heapUsed?: number;
  heapTotal?: number;
  external?: number;
  arrayBuffers?: number;
  requests: number;
}

export const mb = (bytes: number | undefined): string =>
  bytes === undefined ? "n/a" : `${(bytes / 1048576).toFixed(1)} MB`;

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

export class MemoryMonitor {
  readonly samples: Sample[] = [];
  /** heapUsed right after each forced full GC, labelled. */
  readonly retained: { label: string; heapUsed: number | undefined }[] = [];

  constructor(private readonly app: AppChild) {}

  async #ask(type: "mem" | "gc"): Promise<NodeJS.MemoryUsage | undefined> {
    try {
      return (await askApp(this.app, { type })).mem as NodeJS.MemoryUsage;
    } catch {
      return undefined;
    }
  }

  async sample(t: number, requests: number): Promise<Sample> {
    const kb = procStatusKb(this.app.pid, "VmRSS");
    const mem = await this.#ask("mem");
    const s: Sample = {
      t,
      ...(kb !== undefined ? { rss: kb * 1024 } : {}),
      ...(mem
        ? { heapUsed: mem.heapUsed, heapTotal: mem.heapTotal, external: mem.external, arrayBuffers: mem.arrayBuffers }
        : {}),
      requests,
    };
    this.samples.push(s);
    return s;
  }

  /** A full collection in the app; records and returns what the heap holds after it. */
  async fullGc(label: string): Promise<number | undefined> {
    const heapUsed = (await this.#ask("gc"))?.heapUsed;
    this.retained.push({ label, heapUsed });
    return heapUsed;
  }

  /** Median RSS of the samples taken in [from, to) ms. */
  rssMedian(from: number, to: number): number | undefined {
    return median(this.samples.filter((s) => s.t >= from && s.t < to && s.rss !== undefined).map((s) => s.rss!));
  }

  /** Peak RSS of the app process so far (VmHWM). */
  peak(): number | undefined {
    const kb = procStatusKb(this.app.pid, "VmHWM");
    return kb === undefined ? undefined : kb * 1024;
  }

  writeCsv(file: string): void {
    const head = ["elapsed_s", "rss", "heap_used", "heap_total", "external", "array_buffers", "requests"];
    const lines = this.samples.map((x) =>
      [(x.t / 1000).toFixed(1), x.rss, x.heapUsed, x.heapTotal, x.external, x.arrayBuffers, x.requests].join(","),
    );
    writeFileSync(file, `${[head.join(","), ...lines].join("\n")}\n`);
  }
}
