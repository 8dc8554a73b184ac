import type { Dialect } from './dialect.js';
import type { GroupCommitOptions } from './group-commit.js';
import type { MigrationState } from './migrations.js';
import type { Db } from './schema.js';
import type { SessionStore } from './session-store.js';

/**
 * An open database, as openDatabase answers it (open-database.ts: the only module, with its dialect
 * folders, that imports the drivers).
 */
export interface Database {
  readonly db: Db;
  readonly dialect: Dialect;
  /** The hot path's store (the service opens one; operator commands need none). */
  openSessionStore(onBatch?: GroupCommitOptions['onBatch']): SessionStore;
  close(): Promise<void>;
  /** Applies pending migrations, without the statement timeout queries run under; returns their names. */
  migrate(): Promise<string[]>;
  /** Every migration this version knows, applied or pending, then those a later version applied. */
  migrationStatus(): Promise<MigrationState[]>;
  /**
   * From now on, a statement on `db` waits at most `ms` for another connection's write lock before it
   * fails. On SQLite `db` is synchronous: it waits on the event loop, holding every request meanwhile,
   * so a serving instance gives it a short wait (docs/operations.md, "Database outages"); its session
   * store's writes wait in their own thread. On PostgreSQL nothing waits on the event loop: no change.
   */
  limitLockWaits(ms: number): void;
}
