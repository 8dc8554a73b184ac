import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/open-database.js';
import { LiveConfig } from './live-config/live-config.js';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  /** Reload it after changing the configuration in-process (the first start's demo client). */
  live: LiveConfig;
  /** The address it listens on, e.g. http://127.0.0.1:8080. */
  address: string;
  close(): Promise<void>;
}

/** Opens the database (migrating it), loads the live configuration, builds the app and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openDatabase(config.database);
  const sessions = database.openSessionStore();
  const live = await LiveConfig.load(database.db);
  const app = await buildApp({ config, db: database.db, sessions, live });
  live.start((error) => app.log.warn({ err: error }, 'could not refresh the configuration'));
  // In order: no new requests, the ones in flight answered, their writes committed, then the database.
  const close = async () => {
    await app.close();
    await live.stop();
    await sessions.close();
    await database.close();
  };
  try {
    const address = await app.listen({ host: config.host, port: config.port });
    return { app, database, live, address, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Closes gracefully on SIGINT/SIGTERM: in-flight requests finish, then the database closes. */
export function closeOnSignals(server: RunningServer): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
