import { describe, expect, it } from 'vitest';
import { cpuTime, statTicks } from './cpu-time.js';

describe('CPU time from /proc', () => {
  it('adds utime and stime, whatever the command name holds', () => {
    // A real line's shape: pid (comm) state ppid … utime (14th) stime (15th) …
    const line = '4242 (node) (x y)) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 56 0 0 20 0 11 0 999';
    expect(statTicks(line)).toBe(1290);
  });

  it('reads this process, whose main thread is part of the whole', async () => {
    const started = await cpuTime(process.pid);
    const until = performance.now() + 100;
    while (performance.now() < until); // 100 ms of work on this (the main) thread
    const ended = await cpuTime(process.pid);
    expect(ended.mainThread - started.mainThread).toBeGreaterThan(0.05);
    expect(ended.total).toBeGreaterThanOrEqual(ended.mainThread);
  });
});
