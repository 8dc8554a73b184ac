import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Dialect } from './dialect.js';
import type { GroupCommitOptions } from './group-commit.js';
import { type MigrationState, migrateToLatest, migrationStatus } from './migrations.js';
import { PostgresSessionStore } from './postgres/postgres-session-store.js';
import type { DatabaseSchema, Db } from './schema.js';
import type { SessionStore } from './session-store.js';
import { ConnectedSqliteDialect } from './sqlite/connected-sqlite-dialect.js';
import { openSqliteConnection } from './sqlite/sqlite-connection.js';
import { SqliteSessionStore } from './sqlite/sqlite-session-store.js';

/** An open database; the only module (with its dialect folders) that imports the drivers. */
export interface Database {
  readonly db: Db;
  readonly dialect: Dialect;
  /** The hot path's store (the service opens one; operator commands need none). */
  openSessionStore(onBatch?: GroupCommitOptions['onBatch']): SessionStore;
  close(): Promise<void>;
  /** Applies pending migrations, without the statement timeout queries run under; returns their names. */
  migrate(): Promise<string[]>;
  /** Every migration this version knows, applied or pending. */
  migrationStatus(): Promise<MigrationState[]>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL only: work inside this schema (created if missing); tests use one per file. */
  readonly schema?: string;
  /** Apply pending migrations before returning (default false: `serve` and `poker-launch migrate` do). */
  readonly migrate?: boolean;
  /**
   * PostgreSQL: a pooled connection failed while nobody was querying on it (a restart, a failover,
   * `pg_terminate_backend`). The pool drops it and connects anew when asked; this only reports it.
   */
  readonly onConnectionError?: (error: Error) => void;
}

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

export async function openDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const database =
    config.dialect === 'sqlite'
      ? openSqlite(config.path)
      : await openPostgres(config.url, options.schema, options.onConnectionError);
  if (options.migrate === true) {
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

function openSqlite(path: string): Database {
  const db: Db = new Kysely({ dialect: new ConnectedSqliteDialect(openSqliteConnection(path)) });
  return {
    db,
    dialect: 'sqlite',
    openSessionStore: (onBatch) => new SqliteSessionStore(path, onBatch),
    close: () => db.destroy(),
    migrate: () => migrateToLatest(db, 'sqlite'),
    migrationStatus: () => migrationStatus(db, 'sqlite'),
  };
}

async function openPostgres(
  url: string,
  schema: string | undefined,
  onConnectionError: ((error: Error) => void) | undefined,
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
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  });
  const report = onConnectionError ?? (() => {});
  // Without a listener, an error on a connection kills the process (an EventEmitter 'error' event):
  // the pool's for idle connections, each connection's own while a query holds it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', report));
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) });
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

/** A unique index refused the write (two players, one nick): the caller turns it into a business error. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
