import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * PostgreSQL: the launch write's version 4, which reads the player FOR KEY SHARE, so that a block
 * (which takes the row FOR UPDATE) and a launch of that player wait for each other instead of leaving a
 * session live after the block (docs/design.md §11). SQLite: nothing (one writer at a time).
 */
export function blockWaitsForLaunches(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await applyRoutine(db, 'poker_launch_write_batch', 4);
    },
  };
}
