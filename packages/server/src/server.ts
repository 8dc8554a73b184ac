import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { schemaBehindMessage } from './db/migrations.js';
import { openDatabase } from './db/open-database.js';
import type { SessionStore } from './db/session-store.js';
import { warnOfReadableStore } from './db/sqlite/readable-store.js';
import { ThrottledWarning } from './http/throttled-warning.js';
import { ListenError } from './listen-error.js';
import { LiveConfig } from './live-config/live-config.js';
import { serviceState, stopReadiness } from './ops/draining.js';
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
  /** `/readyz` answers 503 from now on; everything else is served as before (closeOnSignals' delay). */
  stopReadiness(): void;
  close(): Promise<void>;
}

/**
 * Opens the database, migrates it (unless MIGRATE_ON_START=false, then refuses a schema that is
 * behind), builds the app and listens.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const metrics = createMetrics();
  let app: FastifyInstance | undefined;
  // A restart or pg_terminate_backend drops every pooled connection at once: one line a burst, counted.
  const connectionsLost = new ThrottledWarning(
    () => new Date(),
    'database connection lost; a new one is made when needed',
    'lostSinceLastWarning',
  );
  const database = await openDatabase(config.database, {
    onConnectionError(error) {
      metrics.databaseErrors.inc({ kind: 'connection' });
      if (app) connectionsLost.say(app.log, error);
    },
  });
  let opened: { sessions: SessionStore; live: LiveConfig } | undefined;
  const state = serviceState();
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
    app = await buildApp({ config, db: database.db, sessions, live, metrics, state });
    const running = app;
    // Logged before the listen, whose line follows: the log tells what happened in the order it did.
    if (appliedMigrations.length > 0)
      running.log.info({ migrations: appliedMigrations }, 'applied migrations');
    live.start(running.log);
    warnOfUnboundKeys(live.apiUsers, running.log);
    if (config.database.dialect === 'sqlite') warnOfReadableStore(config.database.path, running.log);
    const address = await app.listen({ host: config.host, port: config.port }).catch((error: unknown) => {
      throw new ListenError(config.host, config.port, error);
    });
    // Fastify's logger is pino's, which flushes its destination (http/log-destination.ts).
    const flushLog = () => (running.log as FastifyBaseLogger & { flush(): void }).flush();
    return {
      app: running,
      database,
      live,
      address,
      appliedMigrations,
      flushLog,
      stopReadiness: () => stopReadiness(state),
      close,
    };
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

export interface ShutdownTiming {
  /** SHUTDOWN_DELAY: from the signal to the drain, readiness 503 and everything else served as before. */
  delayMs: number;
  /** SHUTDOWN_TIMEOUT: from the start of the drain to the cut of the connections still open. */
  deadlineMs: number;
}

/**
 * Closes gracefully on SIGINT/SIGTERM. For `delayMs` first (SHUTDOWN_DELAY; none by default) only
 * readiness turns 503: the instance accepts connections and serves every request as before, keep-alive
 * included, so balancers that probe `/readyz` take it out of rotation before a connection is closed
 * (docs/operations.md, "Shutdown and slow clients"). A second signal during the delay ends it. Then the
 * drain: idle connections close, in-flight requests finish with `Connection: close`, requests on
 * connections still open get a JSON:API 503, then the database closes and the process exits
 * (ops/draining.ts). `deadlineMs` past the start of the drain the connections still open (a stalled
 * client) are cut, so the process always ends within delay and deadline. A signal during the drain
 * changes nothing.
 */
export function closeOnSignals(server: RunningServer, { delayMs, deadlineMs }: ShutdownTiming): void {
  let signalled = false;
  let draining = false;
  let delay: NodeJS.Timeout | undefined;
  const drain = (signal: string) => {
    draining = true;
    clearTimeout(delay);
    const started = Date.now();
    let cut = false;
    server.app.log.info({ signal, deadlineMs }, 'draining');
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
  const shutdown = (signal: string) => {
    if (draining) return;
    if (signalled) {
      // Ctrl-C pressed again. Under `npm start` one Ctrl-C is two SIGINTs (the terminal's to the process
      // group and npm's own), so there it drains at once too.
      server.app.log.info({ signal }, 'second signal during SHUTDOWN_DELAY; draining now');
      drain(signal);
      return;
    }
    signalled = true;
    server.app.log.info({ signal, delayMs, deadlineMs }, 'shutting down');
    if (delayMs === 0) {
      drain(signal);
      return;
    }
    server.stopReadiness();
    server.app.log.info(
      { delayMs },
      'readiness answers 503; serving everything else until the drain begins after SHUTDOWN_DELAY',
    );
    // Written now: an operator watching the log sees the delay begin, not a quarter of a second later.
    server.flushLog();
    delay = setTimeout(() => drain(signal), delayMs);
  };
  // Kept for good, not once: a signal must not kill the process mid-drain (the default action would).
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** After the deadline cut the connections, what the rest of the close may take before the process exits. */
const FORCED_EXIT_GRACE_MS = 1000;
