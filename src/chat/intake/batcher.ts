/** Most items one statement carries. */
export const BATCH_MAX = 500;
/** How long the first item of a batch waits for others: a statement per few milliseconds, not per delivery. */
export const BATCH_WINDOW_MS = 5;

interface Waiter<T, R> {
  item: T;
  resolve(result: R): void;
  reject(err: unknown): void;
}

/**
 * Collects items for one statement. Each `add` waits for the next run, which starts `windowMs` after the first item
 * waiting for it (or at once when `max` are waiting); runs go one at a time, so items arriving while one runs go
 * together in the next. `run` gets the batch and returns one result per item, in order; if it throws, every item
 * of the batch gets the error.
 */
export class Batcher<T, R> {
  #pending: Waiter<T, R>[] = [];
  #running: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly run: (items: T[]) => Promise<R[]>,
    private readonly windowMs = BATCH_WINDOW_MS,
    private readonly max = BATCH_MAX,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  /** Runs what is waiting now, and resolves when nothing is waiting or running (shutdown). */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#running || this.#pending.length > 0) {
      if (this.#running) await this.#running;
      else this.#start();
    }
  }

  #schedule(): void {
    if (this.#running) return;
    if (this.#pending.length >= this.max) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#start();
      return;
    }
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#start();
    }, this.windowMs);
  }

  #start(): void {
    if (this.#running || this.#pending.length === 0) return;
    const batch = this.#pending.splice(0, this.max);
    this.#running = (async () => {
      try {
        const results = await this.run(batch.map((w) => w.item));
        for (const [i, w] of batch.entries()) w.resolve(results[i] as R);
      } catch (err) {
        for (const w of batch) w.reject(err);
      } finally {
        this.#running = undefined;
        if (this.#pending.length > 0) this.#schedule();
      }
    })();
  }
}
