import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * PostgreSQL: the launch write's version 6, which inserts the sessions of a batch with one statement
 * after its loop, with their columns named, instead of one `jsonb_populate_record` insert per launch
 * (docs/performance.md). SQLite: nothing (its writer is the application's code).
 */
export function oneSessionInsertPerBatch(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await applyRoutine(db, 'poker_launch_write_batch', 6);
    },
  };
}
