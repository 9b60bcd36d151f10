import type { Logger } from "pino";

/**
 * Runs `pass` now and then every `periodMs`, just after each period turns on the wall clock (a once-a-minute check
 * runs at :01 of each minute), never two at once, until the returned function is called. A failed pass is logged
 * under `what` and the next one tries again. The timer does not keep the process alive.
 */
export function startTicker(log: Logger, what: string, periodMs: number, pass: () => Promise<unknown>): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await pass();
    } catch (err) {
      log.error({ err: err instanceof Error ? err.message : String(err) }, `${what} failed`);
    } finally {
      running = false;
    }
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
  };
}
