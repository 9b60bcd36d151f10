import type { Logger } from "pino";

/** Stops a periodic task: no further passes; resolves once the pass running now, if any, has finished. */
export type StopTicker = () => Promise<void>;

/**
 * Runs `pass` now and then every `periodMs`, just after each period turns on the wall clock (a once-a-minute check
 * runs at :01 of each minute), never two at once, until the returned function is called. A failed pass is logged
 * under `what` and the next one tries again. The timer does not keep the process alive.
 */
export function startTicker(log: Logger, what: string, periodMs: number, pass: () => Promise<unknown>): StopTicker {
  let current: Promise<void> | undefined;
  const run = (): Promise<void> => {
    if (current) return current;
    current = (async () => {
      try {
        await pass();
      } catch (err) {
        log.error({ err: err instanceof Error ? err.message : String(err) }, `${what} failed`);
      } finally {
        current = undefined;
      }
    })();
    return current;
  };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    const wait = periodMs - (Date.now() % periodMs) + 1_000;
    timer = setTimeout(() => {
      void run().finally(() => {
        if (!stopped) schedule();
      });
    }, wait);
    timer.unref();
  };
  void run();
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    return current ?? Promise.resolve();
  };
}
