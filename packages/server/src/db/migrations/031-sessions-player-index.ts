import type { Kysely, Migration } from 'kysely';

/**
 * A player's sessions without reading every live session (or a day's): the console's player page (its
 * live sessions), the sessions search by player, `player show` and `player erase` read `sessions` by
 * `player_id`, which had no index since 002 (nothing read by player then). At 1,000,000 sessions, 250,000
 * of them live, the player page read every live one: 0.55–0.94 s on SQLite, on the event loop
 * (docs/performance.md, "The console on a large store"). Every launch's session insert pays for the
 * index: measured there too. `if not exists`: on PostgreSQL an operator may build it beforehand with
 * CREATE INDEX CONCURRENTLY, so that `migrate` does not hold launches' session writes while it builds
 * (docs/operations.md, "Upgrades and migrations").
 */
export const sessionsPlayerIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('sessions_player_id_idx')
      .ifNotExists()
      .on('sessions')
      .columns(['player_id', 'id'])
      .execute();
  },
};
