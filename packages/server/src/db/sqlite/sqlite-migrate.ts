import { setTimeout as sleep } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import { migrateToLatest, migrationStatus } from '../migrations.js';
import type { Db } from '../schema.js';

/** How long a migration waits between attempts at the write lock another process holds. */
const LOCK_RETRY_MS = 25;

/**
 * Applies the pending migrations in one transaction that holds SQLite's write lock from the start
 * (BEGIN IMMEDIATE), as PostgreSQL's advisory lock and transaction do (docs/operations.md, "Upgrades
 * and migrations"). Kysely runs SQLite's migrations without either: two processes starting together on
 * one file both found every migration pending and the second failed on a table the first had made, and
 * a migration cut short (kill -9, a full disk) stayed half applied, so every later run failed on it. Now
 * a second process waits for the first, then finds nothing pending; a failure rolls the whole run back.
 */
export async function migrateSqlite(db: Db, connection: SQLite.Database): Promise<string[]> {
  // Nothing to apply (an instance restarting): no need to wait for the lock a busy writer keeps taking.
  const status = await migrationStatus(db, 'sqlite');
  if (status.every((migration) => migration.appliedAt !== undefined && migration.newer === undefined)) {
    return [];
  }
  await beginImmediate(connection);
  try {
    const applied = await migrateToLatest(db, 'sqlite');
    connection.exec('COMMIT');
    return applied;
  } catch (error) {
    if (connection.inTransaction) connection.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Takes the write lock, waiting as long as another writer holds it: a long migration elsewhere (an
 * index on a big table) takes longer than the busy timeout. The waits are timers, not SQLite's busy
 * handler, which would block the event loop (and another migration of this same process).
 */
async function beginImmediate(connection: SQLite.Database): Promise<void> {
  const busyTimeout = connection.pragma('busy_timeout', { simple: true });
  connection.pragma('busy_timeout = 0');
  try {
    for (;;) {
      try {
        connection.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
      }
      await sleep(LOCK_RETRY_MS);
    }
  } finally {
    connection.pragma(`busy_timeout = ${Number(busyTimeout)}`);
  }
}
