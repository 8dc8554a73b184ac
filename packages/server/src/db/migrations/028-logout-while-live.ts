import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';
import { applyRoutine } from '../launch-write/routines.js';

/**
 * PostgreSQL: the launch write's version 11. A player's logout ended its session whatever its expiry,
 * unlike the other revocations: written late (after the expiry scan had reported the session expired),
 * it added session.logged_out after session.expired and marked an expired session logged out
 * (docs/design.md §11). SQLite: nothing (its writer's statement is the application's).
 */
export function logoutWhileLive(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await applyRoutine(db, 'poker_launch_write_batch', 11);
    },
  };
}
