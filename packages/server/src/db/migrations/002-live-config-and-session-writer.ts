import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Tables whose rows every instance keeps in memory (clients, settings, currencies, API users). */
const LIVE_CONFIG_TABLES = ['clients', 'settings', 'active_currencies', 'api_users'] as const;

/**
 * - `config_version`: one counter that a trigger bumps on every change to a cached table, whoever makes
 *   it (the CLI, another instance, hand-written SQL); each instance polls it to refresh its cache.
 * - `sessions_player_idx` goes: no query reads sessions by player, and every launch paid for the index.
 * - PostgreSQL: `poker_launch_write_batch`, the session writer's batch as one statement (one round trip
 *   and one commit for many launches); SQLite runs the same steps in the writer thread.
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
      await sql.raw(POSTGRES_WRITE_BATCH).execute(db);
    },
  };
}

/**
 * One batch of the session writer: `ops` is a JSON array of launches and revocations; the answer is a
 * JSON array with one result per op, in order. A launch registers or updates the player (only the
 * profile columns it carries, and only when they differ) and inserts the session with the player's id
 * and default currency. A nick another player holds is answered `username_exists` without writing; a
 * nick taken by a concurrent transaction raises the unique violation instead, and the caller retries
 * the batch op by op, so that only that launch fails. No subtransactions: a batch of hundreds of
 * launches stays one plain transaction.
 */
const POSTGRES_WRITE_BATCH = `
create function poker_launch_write_batch(ops jsonb) returns jsonb language plpgsql
  set search_path from current as $$
declare
  op jsonb;
  profile jsonb;
  player players;
  session sessions;
  results jsonb[] := '{}';
begin
  for op in select value from jsonb_array_elements(ops) loop
    if op->>'kind' = 'revoke' then
      update sessions set revoked_at = op->>'at' where id = op->>'id' and revoked_at is null;
      results := results || '{"ok":true}'::jsonb;
      continue;
    end if;

    profile := op->'profile';
    if op->>'mode' = 'internal' then
      select * into player from players where client_id = op->>'clientId' and id = op->>'userId';
      if not found then
        results := results || '{"ok":false,"reason":"player_not_found"}'::jsonb;
        continue;
      end if;
    else
      select * into player from players where client_id = op->>'clientId' and external_id = op->>'userId';
      if not found then
        if profile ? 'nick_key' and exists (select 1 from players where nick_key = profile->>'nick_key') then
          results := results || '{"ok":false,"reason":"username_exists"}'::jsonb;
          continue;
        end if;
        insert into players select * from jsonb_populate_record(null::players, op->'newPlayer' || profile)
          on conflict (client_id, external_id) do nothing;
        select * into player from players where client_id = op->>'clientId' and external_id = op->>'userId';
      end if;
    end if;

    if exists (select 1 from jsonb_each(profile) as sent
               where to_jsonb(player)->sent.key is distinct from sent.value) then
      if profile ? 'nick_key' and exists (select 1 from players
          where nick_key = profile->>'nick_key' and id <> player.id) then
        results := results || '{"ok":false,"reason":"username_exists"}'::jsonb;
        continue;
      end if;
      -- The profile columns sent, whatever they are: one list of them lives in the application.
      player := jsonb_populate_record(player, profile || jsonb_build_object('updated_at', op->>'now'));
      execute (select format('update players set %s where id = ($1).id',
                             string_agg(format('%I = ($1).%I', col, col), ', '))
               from jsonb_object_keys(profile || '{"updated_at": null}') as col)
        using player;
    end if;

    session := jsonb_populate_record(null::sessions,
      op->'session' || jsonb_build_object('player_id', player.id, 'currency', player.currency));
    insert into sessions values (session.*);
    results := results || jsonb_build_object('ok', true, 'playerId', player.id, 'currency', player.currency);
  end loop;
  return to_jsonb(results);
end $$`;
