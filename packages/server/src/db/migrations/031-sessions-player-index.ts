import type { Kysely, Migration } from '#kysely';
import type { Dialect } from '../dialect.js';

/**
 * A player's sessions without reading every live session (or a day's), on PostgreSQL: the console's
 * player page (its live sessions), the sessions search by player, `player show`, `player erase`, and the
 * end of a player's sessions (integrator, operator, block) read `sessions` by `player_id`, which had no
 * index since 002. There the index cost no launch rate measured, on an empty store or on 1,000,000
 * sessions; on SQLite it cost a quarter of it at 1,000,000 sessions, so SQLite keeps reading a player's
 * live sessions through the expiry index (docs/performance.md, "The index of sessions by player").
 * `if not exists`: an operator may build it beforehand with CREATE INDEX CONCURRENTLY, so that `migrate`
 * does not hold launches' session writes while it builds (docs/operations.md, "Upgrades and migrations").
 */
export function sessionsPlayerIndex(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await db.schema
        .createIndex('sessions_player_id_idx')
        .ifNotExists()
        .on('sessions')
        .columns(['player_id', 'id'])
        .execute();
    },
  };
}
