import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { RepeatedFailure } from '../repeated-failure.js';
import type { Metrics } from './metrics.js';
import { type PurgeBatchFunction, purgeInBatches } from './purge.js';

/** How often each instance looks for sessions to purge. */
export const PURGE_INTERVAL_MS = 60_000;
/** Most batches one run deletes (PURGE_BATCH_SIZE each): a backlog is worked off over several runs. */
export const PURGE_MAX_BATCHES_PER_RUN = 100;
/** Pause between two batches of a run, so the purge never holds the database for long. */
export const PURGE_PAUSE_MS = 20;

export interface PurgeSchedulerOptions {
  /** One batch against the database; injected, so the session writer can run it where it writes. */
  readonly purgeBatch: PurgeBatchFunction;
  /** The setting ExpiredSessionRetention, read at each run (an operator may change it). */
  readonly retentionSeconds: () => Promise<number>;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly metrics: Metrics;
  readonly intervalMs?: number;
  /** Before the first run; default a random part of the interval, so instances started together spread out. */
  readonly firstRunDelayMs?: number;
  /** What it purges, for the log (default `session`). */
  readonly what?: string;
  /** Counts what it deleted (default the sessions' counter). */
  readonly purged?: { inc(count: number): void };
}

export interface PurgeScheduler {
  /** Stops the timer and waits for a run in progress to finish its current batch. */
  stop(): Promise<void>;
}

/** Purges ended sessions in the background, one run per interval; failures are logged, never thrown. */
export function startPurgeScheduler(options: PurgeSchedulerOptions): PurgeScheduler {
  const intervalMs = options.intervalMs ?? PURGE_INTERVAL_MS;
  const what = options.what ?? 'session';
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  // Each kind of record runs once a minute: a database away for hours is said once, not at every run.
  const runs = new RepeatedFailure(
    options.log,
    `${what} purge failed; retrying at the next interval, said again once it works`,
    `${what} purge works again`,
  );

  const timedBatch: PurgeBatchFunction = async (batch) => {
    const endTimer = options.metrics.purgeBatchDuration.startTimer();
    const removed = await options.purgeBatch(batch);
    endTimer();
    (options.purged ?? options.metrics.sessionsPurged).inc(removed);
    return removed;
  };

  const run = async () => {
    try {
      const retention = await options.retentionSeconds();
      const before = new Date(options.clock().getTime() - retention * 1000);
      const removed = await purgeInBatches(timedBatch, {
        before,
        maxBatches: PURGE_MAX_BATCHES_PER_RUN,
        betweenBatches: () => sleep(PURGE_PAUSE_MS),
        keepGoing: () => !stopped,
      });
      if (removed > 0)
        options.log.info({ removed, before: before.toISOString(), what }, 'purged old records');
      runs.works();
    } catch (error) {
      // The next run tries again; an outage is already answered (503) and counted where requests meet it.
      runs.fails(error, { databaseUnavailable: isDatabaseUnavailable(error) });
    }
  };

  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = run().then(() => {
        if (!stopped) schedule(intervalMs);
      });
    }, delayMs);
    // The purge never keeps a process alive on its own.
    timer.unref();
  };
  schedule(options.firstRunDelayMs ?? Math.floor(Math.random() * intervalMs));

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
