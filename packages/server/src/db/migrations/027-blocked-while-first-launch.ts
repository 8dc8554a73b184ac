import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * PostgreSQL: the launch write's version 10. A player's first launch that found, at its insert, the
 * player registered meanwhile by another instance's launch went on as a returning launch without the
 * block check nor the row lock a block waits for: a block set in between, or while it committed, left
 * its session live (docs/design.md §11). SQLite: nothing (its writer holds the write lock from lookup
 * to commit).
 */
export function blockedWhileFirstLaunch(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await applyRoutine(db, 'poker_launch_write_batch', 10);
    },
  };
}
