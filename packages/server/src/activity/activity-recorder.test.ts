import { describe, expect, it } from 'vitest';
import { ActivityRecorder } from './activity-recorder.js';
import type { LaunchAttempt } from './launch-attempt.js';

const attempt = (n: number): LaunchAttempt => ({
  at: n,
  clientId: 'c',
  apiVersion: 'v2',
  status: 200,
  errors: [],
  hints: [],
  playerId: `p-${n}`,
  requestId: `r-${n}`,
});

describe('ActivityRecorder', () => {
  it('writes what it holds in batches, in order, and the rest at close', async () => {
    const batches: number[][] = [];
    const recorder = new ActivityRecorder({
      write: async (attempts) => {
        batches.push(attempts.map((a) => a.at));
      },
      batchSize: 2,
      flushIntervalMs: 60_000,
    });
    for (const n of [1, 2, 3]) recorder.record(attempt(n));
    expect(batches).toEqual([]);
    await recorder.close();
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('keeps what a failed write held for the next one, and drops (and counts) past its capacity', async () => {
    let failing = true;
    const written: number[] = [];
    const errors: unknown[] = [];
    let dropped = 0;
    const recorder = new ActivityRecorder({
      write: async (attempts) => {
        if (failing) throw new Error('database away');
        written.push(...attempts.map((a) => a.at));
      },
      capacity: 3,
      flushIntervalMs: 60_000,
      onDrop: (count) => {
        dropped += count;
      },
      onWriteError: (error) => errors.push(error),
    });
    for (const n of [1, 2]) recorder.record(attempt(n));
    await recorder.flush();
    expect(errors).toHaveLength(1);
    for (const n of [3, 4, 5]) recorder.record(attempt(n));
    expect(dropped).toBe(2);
    failing = false;
    await recorder.close();
    expect(written).toEqual([1, 2, 3]);
  });
});
