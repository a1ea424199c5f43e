import type { Clock } from '../lib/clock.js';

/** A clock that stands still until the test moves it. */
export type FakeClock = Clock & {
  /** Moves the clock forward by `ms` milliseconds. */
  advance: (ms: number) => void;
};

/** A fake clock starting at `start` (now by default). */
export function createFakeClock(start: Date = new Date()): FakeClock {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
  };
}
