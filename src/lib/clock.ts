/** All business time comes from a Clock so tests can stand on any instant, in any timezone, across DST. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that tests move by hand. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string | number = "2026-01-05T09:00:00Z") {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(to: Date | string | number): void {
    this.#ms = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}
