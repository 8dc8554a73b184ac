import type SQLite from 'better-sqlite3';
import { SqliteAdapter, SqliteDialect } from '#kysely';
import type { Db } from '../schema.js';

/** Kysely's SQLite adapter, holding the one connection it talks through. */
class ConnectedSqliteAdapter extends SqliteAdapter {
  constructor(readonly connection: SQLite.Database) {
    super();
  }
}

/**
 * Kysely's SQLite dialect that lets code running in one of its transactions reach the connection
 * underneath: the launch write on SQLite is synchronous code over that connection (db/launch-write/),
 * and `player add` runs it inside its audited transaction.
 */
export class ConnectedSqliteDialect extends SqliteDialect {
  constructor(private readonly connection: SQLite.Database) {
    super({ database: connection });
  }

  override createAdapter(): SqliteAdapter {
    return new ConnectedSqliteAdapter(this.connection);
  }
}

/** The SQLite connection under `db` (a transaction of it included); undefined on PostgreSQL. */
export function sqliteConnectionOf(db: Db): SQLite.Database | undefined {
  const adapter = db.getExecutor().adapter;
  return adapter instanceof ConnectedSqliteAdapter ? adapter.connection : undefined;
}
