import { PostgresAdapter, type SelectQueryBuilder } from '#kysely';
import type { Db } from './schema.js';

/**
 * Locks the selected rows for the statement that uses them, skipping rows another transaction holds:
 * several instances can work through one table at once without waiting on each other. PostgreSQL only;
 * SQLite has one writer at a time, so the plain select is already safe there.
 */
export function forUpdateSkipLocked<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate().skipLocked() : query;
}

/**
 * Locks the selected rows until the transaction ends, waiting for a transaction that holds them.
 * PostgreSQL only; on SQLite the transaction took the write lock first (takeWriteLock), which excludes
 * every other writer already.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? query.forUpdate() : query;
}
