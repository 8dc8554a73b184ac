import pg from 'pg';
import { Kysely, PostgresDialect, sql } from '#kysely';
import type { Database } from '../database.js';
import { migrateToLatest, migrationStatus } from '../migrations.js';
import type { DatabaseSchema, Db } from '../schema.js';
import { keepPostgresPool } from './postgres-pool-of.js';
import { PostgresSessionStore } from './postgres-session-store.js';

/** Longest wait for a PostgreSQL connection (a new one, or a free one of the pool) before a query fails. */
export const CONNECT_TIMEOUT_MS = 3000;
/** Longest a PostgreSQL statement may run: a locked table or a stuck server answers 503, never hangs. */
export const STATEMENT_TIMEOUT_MS = 5000;
/**
 * Longest the driver waits for any answer to a query. The statement timeout is the server's: it cannot
 * help when no answer comes back at all (a network partition, a failover that leaves the old address
 * silent), and an open connection would then wait for the operating system's keep-alive, for hours.
 * Above the statement timeout, so that a slow statement is still the server's to cancel.
 */
export const QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 1000;

/**
 * The PostgreSQL database at `url` as a Database (openDatabase's, for DATABASE_URL=postgres://…);
 * `schema`: work inside it, created if missing.
 */
export async function openPostgres(
  url: string,
  schema: string | undefined,
  onConnectionError: ((error: Error) => void) | undefined,
  withoutTimeouts = false,
): Promise<Database> {
  if (schema !== undefined) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = postgresPool(url, schema, {
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(withoutTimeouts ? {} : { statement_timeout: STATEMENT_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS }),
  });
  const report = onConnectionError ?? (() => {});
  // Without a listener, an error on a connection kills the process (an EventEmitter 'error' event):
  // the pool's for idle connections, each connection's own while a query holds it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', report));
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  keepPostgresPool(db, pool);
  return {
    db,
    dialect: 'postgres',
    openSessionStore: (onBatch) => new PostgresSessionStore(pool, onBatch),
    close: () => db.destroy(),
    migrate: async () =>
      withoutStatementTimeout(url, await currentSchema(db), (migrating, current) =>
        migrateToLatest(migrating, 'postgres', current),
      ),
    migrationStatus: async () => migrationStatus(db, 'postgres', await currentSchema(db)),
    limitLockWaits: () => {},
  };
}

/**
 * Migrations may build indexes on big tables: on PostgreSQL they run on a connection of their own,
 * without the statement timeout queries run under. SQLite has no such timeout.
 */
async function withoutStatementTimeout<T>(
  url: string,
  schema: string | undefined,
  work: (db: Db, schema?: string) => Promise<T>,
): Promise<T> {
  const db = new Kysely<DatabaseSchema>({
    dialect: new PostgresDialect({ pool: postgresPool(url, schema, { max: 1 }) }),
  });
  try {
    return await work(db, schema);
  } finally {
    await db.destroy();
  }
}

function postgresPool(url: string, schema: string | undefined, options: pg.PoolConfig): pg.Pool {
  return new pg.Pool({
    connectionString: url,
    keepAlive: true,
    ...options,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
}

/** The schema unqualified names resolve to: the first of the search_path that exists. */
async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? 'public';
}
