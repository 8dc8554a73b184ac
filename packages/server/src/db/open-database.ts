import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { migrateToLatest } from './migrations.js';
import type { Db } from './schema.js';

/** An open database; the only module that imports the drivers. */
export interface Database {
  readonly db: Db;
  readonly dialect: DatabaseConfig['dialect'];
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
  const db =
    config.dialect === 'sqlite' ? openSqlite(config.path) : await openPostgres(config.url, options.schema);
  const database: Database = { db, dialect: config.dialect, close: () => db.destroy() };
  if (options.migrate !== false) {
    await migrateToLatest(db, config.dialect === 'postgres' ? await currentSchema(db) : undefined);
  }
  return database;
}

function openSqlite(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before the response that confirms it; NORMAL could lose it on power loss.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
}

async function openPostgres(url: string, schema: string | undefined): Promise<Db> {
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
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
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
