import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Dialect } from './dialect.js';
import type { GroupCommitOptions } from './group-commit.js';
import { migrateToLatest } from './migrations.js';
import { PostgresSessionStore } from './postgres/postgres-session-store.js';
import type { Db } from './schema.js';
import type { SessionStore } from './session-store.js';
import { openSqliteConnection } from './sqlite/sqlite-connection.js';
import { SqliteSessionStore } from './sqlite/sqlite-session-store.js';

/** An open database; the only module (with its dialect folders) that imports the drivers. */
export interface Database {
  readonly db: Db;
  readonly dialect: Dialect;
  /** The hot path's store (the service opens one; operator commands need none). */
  openSessionStore(onBatch?: GroupCommitOptions['onBatch']): SessionStore;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL only: work inside this schema (created if missing); tests use one per file. */
  readonly schema?: string;
  /** Apply pending migrations (the server does at start; default true). */
  readonly migrate?: boolean;
}

export async function openDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const database =
    config.dialect === 'sqlite' ? openSqlite(config.path) : await openPostgres(config.url, options.schema);
  if (options.migrate !== false) {
    const schema = config.dialect === 'postgres' ? await currentSchema(database.db) : undefined;
    await migrateToLatest(database.db, config.dialect, schema);
  }
  return database;
}

function openSqlite(path: string): Database {
  const db: Db = new Kysely({ dialect: new SqliteDialect({ database: openSqliteConnection(path) }) });
  return {
    db,
    dialect: 'sqlite',
    openSessionStore: (onBatch) => new SqliteSessionStore(path, onBatch),
    close: () => db.destroy(),
  };
}

async function openPostgres(url: string, schema: string | undefined): Promise<Database> {
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
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    openSessionStore: (onBatch) => new PostgresSessionStore(pool, onBatch),
    close: () => db.destroy(),
  };
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
