import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { purgeStatement } from '../sessions/session-purge.js';
import { loadSettings } from '../settings/setting.repository.js';
import { type PurgeScheduler, startPurgeScheduler } from './purge-scheduler.js';

export interface PurgeJobOptions {
  readonly intervalMs?: number;
  readonly firstRunDelayMs?: number;
}

/**
 * The background purge of every listening instance: it starts when the server listens (an app that
 * only answers `inject`, as in tests, runs none) and stops when the app starts closing.
 */
export function registerPurgeJob(
  app: FastifyInstance,
  context: AppContext,
  options: PurgeJobOptions = {},
): void {
  let scheduler: PurgeScheduler | undefined;
  app.addHook('onListen', async () => {
    scheduler = startPurgeScheduler({
      // Where the sessions are written: on SQLite, in the writer thread, off the event loop.
      purgeBatch: (batch) => context.sessions.execute(purgeStatement(context.db, batch)),
      retentionSeconds: async () => (await loadSettings(context.db)).ExpiredSessionRetention,
      clock: context.clock,
      log: app.log,
      metrics: context.metrics,
      ...options,
    });
  });
  app.addHook('preClose', async () => {
    await scheduler?.stop();
  });
}
