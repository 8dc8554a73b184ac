import { Kysely } from '#kysely';
import type { Database } from '../database.js';
import { migrationStatus } from '../migrations.js';
import type { Db } from '../schema.js';
import { ConnectedSqliteDialect } from './connected-sqlite-dialect.js';
import { openSqliteConnection } from './sqlite-connection.js';
import { migrateSqlite } from './sqlite-migrate.js';
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
    migrate: () => migrateSqlite(db, connection),
    migrationStatus: () => migrationStatus(db, 'sqlite'),
    limitLockWaits: (ms) => connection.pragma(`busy_timeout = ${ms}`),
  };
}
