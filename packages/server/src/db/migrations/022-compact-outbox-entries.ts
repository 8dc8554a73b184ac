import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * PostgreSQL: the launch write's version 8, which takes a launch's outbox rows as [id, endpoint, event
 * type] and fills the rest of each row from the launch (its client, player, session and time) instead
 * of receiving them again in every row (docs/performance.md). SQLite: nothing (its writer is the
 * application's code).
 */
export function compactOutboxEntries(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await applyRoutine(db, 'poker_launch_write_batch', 8);
    },
  };
}
