import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * PostgreSQL: the launch write's version 7, which inserts the outbox rows of a batch's launches with one
 * statement after its loop, as version 6 does their sessions, instead of one insert per launch with an
 * endpoint (docs/performance.md). SQLite: nothing (its writer is the application's code).
 */
export function oneOutboxInsertPerBatch(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await applyRoutine(db, 'poker_launch_write_batch', 7);
    },
  };
}
