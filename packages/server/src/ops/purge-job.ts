import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { loadSettings } from '../settings/setting.repository.js';
import { type PurgeScheduler, startPurgeScheduler } from './purge-scheduler.js';
import { PURGE_TARGETS } from './purge-targets.js';

export interface PurgeJobOptions {
  readonly intervalMs?: number;
  readonly firstRunDelayMs?: number;
}

/**
 * The background purges of every listening instance (sessions, and the console's records, each past
 * its retention): they start when the server listens (an app that only answers `inject`, as in tests,
 * runs none) and stop when the app starts closing.
 */
export function registerPurgeJob(
  app: FastifyInstance,
  context: AppContext,
  options: PurgeJobOptions = {},
): void {
  let schedulers: PurgeScheduler[] = [];
  app.addHook('onListen', async () => {
    schedulers = PURGE_TARGETS.map((target) =>
      startPurgeScheduler({
        // Where the sessions are written: on SQLite, in the writer thread, off the event loop.
        purgeBatch: (batch) => context.sessions.execute(target.statement(context.db, batch)),
        retentionSeconds: async () => target.retentionSeconds(await loadSettings(context.db)),
        clock: context.clock,
        log: app.log,
        metrics: context.metrics,
        what: target.what,
        ...(target.what === 'session'
          ? {}
          : { purged: context.metrics.consoleRecordsPurged.labels({ kind: target.what }) }),
        ...options,
      }),
    );
  });
  app.addHook('preClose', async () => {
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
  });
}
