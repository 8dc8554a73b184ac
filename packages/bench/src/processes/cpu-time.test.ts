import { describe, expect, it } from 'vitest';
import { cpuTime, statTicks } from './cpu-time.js';

// Linux's USER_HZ: /proc's figures are in hundredths of a second on every architecture Node.js runs on.
const ONE_TICK = 0.01;

describe('CPU time from /proc', () => {
  it('adds utime and stime, whatever the command name holds', () => {
    // A real line's shape: pid (comm) state ppid … utime (14th) stime (15th) …
    const line = '4242 (node) (x y)) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 56 0 0 20 0 11 0 999';
    expect(statTicks(line)).toBe(1290);
  });

  it('reads this process, whose main thread is part of the whole', async () => {
    const started = await cpuTime(process.pid);
    // Work on this (the main) thread until both figures grow, however little of the CPU a busy machine
    // lends it: no share of the wall clock is expected, only that the work shows where it was done. Each
    // figure is rounded down to a clock tick on its own, so one of them can show the work a tick after the
    // other; a reader that missed the work never leaves the loop, and the test times out.
    let ended = started;
    while (ended.mainThread <= started.mainThread || ended.total <= started.total) {
      const until = performance.now() + 20;
      while (performance.now() < until);
      ended = await cpuTime(process.pid);
    }
    expect(ended.total).toBeGreaterThanOrEqual(ended.mainThread - ONE_TICK);
  });
});
