import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { schemaBehindMessage } from './db/migrations.js';
import { openDatabase } from './db/open-database.js';
import type { SessionStore } from './db/session-store.js';
import { warnOfReadableStore } from './db/sqlite/readable-store.js';
import { LiveConfig } from './live-config/live-config.js';
import { histogramSeries } from './ops/metric-series.js';
import { createMetrics } from './ops/metrics.js';
import { warnOfUnboundKeys } from './users/unbound-keys.js';

/**
 * How long the console's statements (its changes and sign-ins; on SQLite they run on the event loop) wait
 * for another process's write lock once the instance serves: the session writer's own commits hold it
 * for milliseconds, and a longer wait would hold every request of the instance (docs/operations.md,
 * "Database outages").
 */
const EVENT_LOOP_LOCK_WAIT_MS = 250;

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  /** Reload it after changing the configuration in-process (the first start's demo client). */
  live: LiveConfig;
  /** The address it listens on, e.g. http://127.0.0.1:8080. */
  address: string;
  /** Migrations this start applied (empty when the schema was up to date). */
  appliedMigrations: readonly string[];
  /** Writes the log lines still buffered now (else they wait up to a quarter of a second). */
  flushLog(): void;
  close(): Promise<void>;
}

/**
 * Opens the database, migrates it (unless MIGRATE_ON_START=false, then refuses a schema that is
 * behind), builds the app and listens.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const metrics = createMetrics();
  let app: FastifyInstance | undefined;
  const database = await openDatabase(config.database, {
    onConnectionError(error) {
      metrics.databaseErrors.inc({ kind: 'connection' });
      app?.log.warn({ err: error }, 'database connection lost; a new one is made when needed');
    },
  });
  let opened: { sessions: SessionStore; live: LiveConfig } | undefined;
  // In order: no new requests, the ones in flight answered, their writes committed, then the database.
  const close = async () => {
    await app?.close();
    await opened?.live.stop();
    await opened?.sessions.close();
    await database.close();
  };
  try {
    const appliedMigrations = await prepareSchema(database, config.migrateOnStart);
    database.limitLockWaits(EVENT_LOOP_LOCK_WAIT_MS);
    // Series made once (metric-series.ts): prom-client's observe costs 6.5k instructions, twice a batch.
    const batchSizes = histogramSeries(metrics.writeBatchSize, {});
    const batchDurations = histogramSeries(metrics.writeBatchDuration, {});
    const sessions = database.openSessionStore((size, seconds) => {
      batchSizes.add(size);
      batchDurations.add(seconds);
    });
    const live = await LiveConfig.load(database.db);
    opened = { sessions, live };
    app = await buildApp({ config, db: database.db, sessions, live, metrics });
    const running = app;
    live.start(running.log);
    warnOfUnboundKeys(live.apiUsers, running.log);
    if (config.database.dialect === 'sqlite') warnOfReadableStore(config.database.path, running.log);
    const address = await app.listen({ host: config.host, port: config.port });
    // Fastify's logger is pino's, which flushes its destination (http/log-destination.ts).
    const flushLog = () => (running.log as FastifyBaseLogger & { flush(): void }).flush();
    return { app: running, database, live, address, appliedMigrations, flushLog, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function prepareSchema(database: Database, migrate: boolean): Promise<string[]> {
  if (migrate) return database.migrate();
  const pending = (await database.migrationStatus()).filter((migration) => !migration.appliedAt);
  if (pending.length > 0) throw new Error(schemaBehindMessage(pending));
  return [];
}

/**
 * Closes gracefully on SIGINT/SIGTERM: readiness turns 503 at once, idle connections close, in-flight
 * requests finish with `Connection: close`, requests on connections still open get a JSON:API 503, then
 * the database closes and the process exits (ops/draining.ts). Past `deadlineMs` the
 * connections still open (a stalled client) are cut, so the process always ends within the deadline.
 */
export function closeOnSignals(server: RunningServer, deadlineMs: number): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    let cut = false;
    server.app.log.info({ signal, deadlineMs }, 'shutting down');
    const deadline = setTimeout(() => {
      cut = true;
      server.app.log.warn('shutdown deadline passed; closing the connections still open');
      server.app.server.closeAllConnections();
      // Whatever else still holds the close up (the database), the process ends now.
      setTimeout(() => process.exit(1), FORCED_EXIT_GRACE_MS).unref();
    }, deadlineMs);
    deadline.unref();
    server.close().then(
      () => {
        // The last line: the drain ended (by itself, or cut at the deadline), not by a SIGKILL (pino
        // writes the lines it still holds as the process exits).
        server.app.log.info({ signal, drainedMs: Date.now() - started, cutConnections: cut }, 'shut down');
        process.exit(0);
      },
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Kept for good, not once: a second signal must not kill the process mid-drain. Ctrl-C under `npm start`
  // sends SIGINT twice (the terminal's to the process group, and the one npm forwards to its child).
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** After the deadline cut the connections, what the rest of the close may take before the process exits. */
const FORCED_EXIT_GRACE_MS = 1000;
