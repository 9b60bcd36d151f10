/**
 * Preloaded into an app process (startAppProcess's `preload`): the process's wall clock runs UPBEAT_TEST_CLOCK_SHIFT_MS
 * ahead, so a test can start a real src/main.ts "later the same night" (a run's close) without waiting for it.
 * Only `Date` moves; timers keep real time.
 */
const shift = Number(process.env.UPBEAT_TEST_CLOCK_SHIFT_MS ?? 0);
if (shift) {
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args: ConstructorParameters<DateConstructor> | []) {
      if (args.length === 0) super(RealDate.now() + shift);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return RealDate.now() + shift;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}
