import { type Kysely, type Migration, sql } from '#kysely';
import type { Dialect } from '../dialect.js';

/** Tables whose rows every instance keeps in memory (clients, settings, currencies, API users). */
const LIVE_CONFIG_TABLES = ['clients', 'settings', 'active_currencies', 'api_users'] as const;

/**
 * - `config_version`: one counter that a trigger bumps on every change to a cached table, whoever makes
 *   it (the CLI, another instance, hand-written SQL); each instance polls it to refresh its cache.
 * - `sessions_player_idx` goes: no query reads sessions by player, and every launch paid for the index.
 * - PostgreSQL: this migration created `poker_launch_write_batch` (the session writer's batch as one
 *   statement) when it shipped; the function is now defined once, in db/launch-write/, and created by the
 *   migration that applies its current version (012): the same schema at the end, without a copy here.
 */
export function liveConfigAndSessionWriter(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('config_version')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into config_version (id, version) values (1, 0)`.execute(db);
      await db.schema.dropIndex('sessions_player_idx').execute();
      if (dialect === 'sqlite') {
        for (const table of LIVE_CONFIG_TABLES) {
          for (const event of ['insert', 'update', 'delete']) {
            await sql
              .raw(
                `create trigger ${table}_${event}_bumps_config_version after ${event} on ${table} ` +
                  'begin update config_version set version = version + 1; end',
              )
              .execute(db);
          }
        }
        return;
      }
      await sql
        .raw(
          `create function poker_launch_bump_config_version() returns trigger language plpgsql
             set search_path from current as $$
           begin
             update config_version set version = version + 1;
             return null;
           end $$`,
        )
        .execute(db);
      for (const table of LIVE_CONFIG_TABLES) {
        await sql
          .raw(
            `create trigger ${table}_bumps_config_version after insert or update or delete or truncate ` +
              `on ${table} for each statement execute function poker_launch_bump_config_version()`,
          )
          .execute(db);
      }
    },
  };
}
