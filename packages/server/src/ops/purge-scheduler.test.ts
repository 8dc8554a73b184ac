import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PurgeBatch } from '../sessions/session-purge.js';
import { TestClock } from '../test-support/test-clock.js';
import { createMetrics } from './metrics.js';
import { purgeInBatches } from './purge.js';
import { startPurgeScheduler } from './purge-scheduler.js';

/** Resolves once `condition` holds, polling; rejects after `ms`. */
async function eventually(condition: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('purgeInBatches', () => {
  it('runs batches until one comes back short, and adds them up', async () => {
    const left = [500, 500, 120];
    const batches: PurgeBatch[] = [];
    const total = await purgeInBatches(
      async (batch) => {
        batches.push(batch);
        return left.shift() ?? 0;
      },
      { before: new Date(0), batchSize: 500 },
    );
    expect(total).toBe(1120);
    expect(batches).toHaveLength(3);
    expect(batches.every((batch) => batch.limit === 500)).toBe(true);
  });

  it('stops after maxBatches, or as soon as keepGoing says so', async () => {
    const full = async ({ limit }: PurgeBatch) => limit;
    expect(await purgeInBatches(full, { before: new Date(0), batchSize: 10, maxBatches: 4 })).toBe(40);
    let calls = 0;
    const stopping = await purgeInBatches(
      async ({ limit }) => {
        calls++;
        return limit;
      },
      { before: new Date(0), batchSize: 10, keepGoing: () => calls < 2 },
    );
    expect(stopping).toBe(20);
  });
});

describe('startPurgeScheduler', () => {
  const log = pino({ level: 'silent' });

  it('purges what ended a retention ago at each interval, counts it, and stops', async () => {
    const clock = new TestClock();
    const metrics = createMetrics();
    const cutoffs: string[] = [];
    const scheduler = startPurgeScheduler({
      purgeBatch: async ({ before }) => {
        cutoffs.push(before.toISOString());
        return cutoffs.length === 1 ? 3 : 0;
      },
      retentionSeconds: async () => 3600,
      clock: clock.now,
      log,
      metrics,
      intervalMs: 10,
      firstRunDelayMs: 0,
    });
    await eventually(() => cutoffs.length >= 2);
    await scheduler.stop();
    const calls = cutoffs.length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cutoffs.length).toBe(calls);
    expect(cutoffs[0]).toBe('2026-11-21T11:00:00.000Z');
    expect((await metrics.sessionsPurged.get()).values[0]?.value).toBe(3);
    expect(
      (await metrics.purgeBatchDuration.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value,
    ).toBe(calls);
  });

  it('logs a failed run and tries again at the next interval', async () => {
    const lines: string[] = [];
    const logged = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    let calls = 0;
    const scheduler = startPurgeScheduler({
      purgeBatch: async () => {
        calls++;
        if (calls === 1) throw Object.assign(new Error('Connection terminated unexpectedly'), {});
        return 0;
      },
      retentionSeconds: async () => 0,
      clock: () => new Date(),
      log: logged,
      metrics: createMetrics(),
      intervalMs: 10,
      firstRunDelayMs: 0,
    });
    await eventually(() => calls >= 2);
    await scheduler.stop();
    expect(lines.join('')).toContain('session purge failed; retrying at the next interval');
    expect(lines.join('')).toContain('"databaseUnavailable":true');
  });

  // Nine kinds of records purge once a minute each: an outage or a read-only database lasting hours would
  // log nine warnings a minute, each with its stack (docs/operations.md, Database outages).
  it('says a failure once while runs keep failing, and once that a run works again', async () => {
    const lines: string[] = [];
    const logged = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    let calls = 0;
    const scheduler = startPurgeScheduler({
      purgeBatch: async () => {
        calls++;
        if (calls <= 5) throw new Error('Connection terminated unexpectedly');
        return 0;
      },
      retentionSeconds: async () => 0,
      clock: () => new Date(),
      log: logged,
      metrics: createMetrics(),
      intervalMs: 10,
      firstRunDelayMs: 0,
    });
    await eventually(() => calls >= 7);
    await scheduler.stop();
    const said = (message: string) => lines.filter((line) => line.includes(message)).length;
    expect(said('session purge failed')).toBe(1);
    expect(said('session purge works again')).toBe(1);
  });
});
