import { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { migrateToLatest, migrationStatus } from '../migrations.js';
import type { Db } from '../schema.js';
import { ConnectedSqliteDialect } from './connected-sqlite-dialect.js';
import { openSqliteConnection } from './sqlite-connection.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

/** The SQLite file at `path` as a Database (openDatabase's, for DATABASE_URL=sqlite:…). */
export function openSqlite(path: string): Database {
  const connection = openSqliteConnection(path);
  const db: Db = new Kysely({ dialect: new ConnectedSqliteDialect(connection) });
  return {
    db,
    dialect: 'sqlite',
    openSessionStore: (onBatch) => new SqliteSessionStore(path, onBatch),
    close: () => db.destroy(),
    migrate: () => migrateToLatest(db, 'sqlite'),
    migrationStatus: () => migrationStatus(db, 'sqlite'),
    limitLockWaits: (ms) => connection.pragma(`busy_timeout = ${ms}`),
  };
}
