import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * PostgreSQL: the launch write's version 9. A player's first launch on one instance, committed between
 * another instance's lookup of that player and its nick check, had the second launch refused with
 * `username_exists` for the player's own nick (a 500), where it is that player's returning launch, or a
 * replay. SQLite: nothing (its writer holds the write lock from lookup to commit).
 */
export function concurrentFirstLaunchNick(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await applyRoutine(db, 'poker_launch_write_batch', 9);
    },
  };
}
