import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * PostgreSQL: the launch write's version 5, which takes a smaller message: a new player's id is made by
 * the database, its keys and times and the session's client and creation time are taken from the op
 * instead of sent twice, and a session's null columns are left out (docs/performance.md). SQLite:
 * nothing (its writer is the application's code).
 */
export function smallerLaunchWrite(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await applyRoutine(db, 'poker_launch_write_batch', 5);
    },
  };
}
