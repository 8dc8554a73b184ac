import type { DatabaseConfig } from '../config.js';
import type { Database } from './database.js';

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
  /**
   * PostgreSQL: no statement nor query timeout, for `poker-launch copy-store`, whose counts and copies
   * of whole tables may take longer than a request's query ever should (docs/design.md §10).
   */
  readonly withoutTimeouts?: boolean;
}

export async function openDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  // Each driver is loaded only for its own dialect: pg (with the fetch classes it touches as it loads)
  // added 0.08 s of CPU to every start of an operator command on SQLite.
  const database =
    config.dialect === 'sqlite'
      ? (await import('./sqlite/open-sqlite.js')).openSqlite(config.path)
      : await (await import('./postgres/open-postgres.js')).openPostgres(
          config.url,
          options.schema,
          options.onConnectionError,
          options.withoutTimeouts === true,
        );
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

/** A unique index refused the write (two players, one nick): the caller turns it into a business error. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
