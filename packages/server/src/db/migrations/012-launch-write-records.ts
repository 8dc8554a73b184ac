import { type Kysely, type Migration, sql } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * What a launch may write besides its player and session (docs/design.md §10, §11):
 * - `used_signatures`: the signatures of launches, by client and sign, so that one signed request
 *   launches once; kept until `expires_at`, after which the signature is refused anyway (the purge
 *   reads them by that index). SQLite: WITHOUT ROWID, one B-tree entry per signature.
 * - PostgreSQL: `database_routines`, the version of each routine applied, and the launch write's
 *   version 3 (the signature, the outbox rows, the block). SQLite runs the same steps in its writer.
 */
export function launchWriteRecords(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('used_signatures')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('sign', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('used_signatures_pk', ['client_id', 'sign'])
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();
      await db.schema
        .createIndex('used_signatures_expiry_idx')
        .on('used_signatures')
        .column('expires_at')
        .execute();
      if (dialect === 'sqlite') return;
      await db.schema
        .createTable('database_routines')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('applied_at', 'text', (c) => c.notNull())
        .execute();
      await applyRoutine(db, 'poker_launch_write_batch', 3);
    },
  };
}
