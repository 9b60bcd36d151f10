/** Scheduled and seeded-random fault injection. */
import type { Fault, RandomFaults } from "./types.ts";

/** mulberry32: tiny, fast, and the same sequence for the same seed on every machine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  readonly #queues = new Map<string, Array<{ fault: Fault; left: number }>>();
  #random: { cfg: RandomFaults; next: () => number } | null = null;
  /** Every method's first call from now on gets this fault (once per method); null: off. */
  #firstCall: { fault: Fault; seen: Set<string> } | null = null;

  add(method: string, fault: Fault, times: number): void {
    if (!Number.isInteger(times) || times < 1) throw new Error(`fake-slack: times must be a positive integer`);
    if (isDelay(fault) && !(fault.delayMs >= 0)) throw new Error(`fake-slack: delayMs must be 0 or more`);
    let queue = this.#queues.get(method);
    if (!queue) {
      queue = [];
      this.#queues.set(method, queue);
    }
    queue.push({ fault, left: times });
  }

  setRandom(cfg: RandomFaults | null): void {
    if (cfg && !(cfg.ratio >= 0 && cfg.ratio <= 1)) throw new Error(`fake-slack: ratio must be within 0..1`);
    this.#random = cfg ? { cfg, next: mulberry32(cfg.seed) } : null;
  }

  failFirstCallOfEachMethod(fault: Fault | null): void {
    this.#firstCall = fault ? { fault, seen: new Set() } : null;
  }

  /** Scheduled faults win; the PRNG advances only on calls they leave alone, so its pattern depends on the seed only. */
  take(method: string): Fault | undefined {
    const queue = this.#queues.get(method);
    const head = queue?.[0];
    if (queue && head) {
      head.left -= 1;
      if (head.left === 0) queue.shift();
      return head.fault;
    }
    if (this.#firstCall && !this.#firstCall.seen.has(method)) {
      this.#firstCall.seen.add(method);
      return this.#firstCall.fault;
    }
    const random = this.#random;
    if (random && (random.cfg.method === undefined || random.cfg.method === method)) {
      if (random.next() < random.cfg.ratio) return random.cfg.fault;
    }
    return undefined;
  }

  clear(): void {
    this.#queues.clear();
    this.#random = null;
    this.#firstCall = null;
  }
}

/** A delay is no failure: the call is handled normally once it has waited. */
export function isDelay(fault: Fault): fault is { delayMs: number } {
  return "delayMs" in fault;
}

/** The error code a faulted call is recorded with. */
export function faultError(fault: Exclude<Fault, { delayMs: number }>): string {
  if ("error" in fault) return fault.error;
  if ("drop" in fault) return "connection_dropped";
  return fault.status === 429 ? "ratelimited" : `http_${fault.status}`;
}
