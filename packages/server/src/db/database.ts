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
  /** Every migration this version knows, applied or pending. */
  migrationStatus(): Promise<MigrationState[]>;
}
