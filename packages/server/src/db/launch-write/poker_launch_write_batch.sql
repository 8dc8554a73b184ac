-- poker_launch_write_batch, version 11: the launch write on PostgreSQL (docs/design.md §10).
-- Applied by name and version (db/launch-write/routines.ts); a change here is a new version and a new
-- migration that applies it. The SQLite writer beside it (sqlite-batch-writer.ts) runs the same steps.
--
-- One batch of the session writer: `ops` is a JSON array of launches and revocations; the answer is a
-- JSON array with one result per op, in order. A launch:
--   1. reads the player (by the integrator's id, or by ours in internal player-id mode), FOR KEY SHARE:
--      the lock the session's foreign key takes anyway, taken at the read so that a block, which takes
--      the row FOR UPDATE, waits for this launch or this launch for it (docs/design.md §11);
--   2. refuses, writing nothing: an unknown player in internal mode (player_not_found), a blocked
--      player (player_blocked), a nick another player holds (username_exists);
--   3. records the request's signature when it carries one; a signature the client used before
--      answers `replayed` (it is the launch's first write, so nothing else was written);
--   4. registers the player if new (a fresh UUID as its id, the op's clientId, userId and now, its
--      newPlayer flags, then its profile), or writes the profile columns sent where they differ;
--   5. keeps the session for the batch's one insert, with the player's id and default currency, the
--      op's clientId and now (its created_at; the columns the op leaves out are null), and inserts the
--      outbox rows whose condition held (always, player created, player updated).
-- An outbox entry is [id, endpoint id, event type]; the rest of its row is the launch's (its clientId,
-- userId as the player's id, for a session event the session's ids, now as its three times), and its
-- type gives its condition: session.created always, player.created when the player was registered,
-- player.updated when its profile changed (db/session-store.ts, LaunchOutboxEntry). Version 7's entries,
-- {"when", "row"}, which an instance not yet upgraded still sends, are read too: their rows hold the
-- same values.
-- The sessions of all the batch's launches are inserted by one statement after the loop, and so are their
-- outbox rows: a statement per launch started an executor per launch, a fifth of the backend's time
-- (docs/performance.md). Nothing in the batch reads a session or an outbox row it writes, and an insert
-- that fails raises for the whole batch as before.
-- A revocation (the player's logout, kind `revoke`) ends the session only while it lives, as the other
-- revocations do (session-control/session-end.ts): not one that had expired at its `at`, nor one the
-- expiry scan has reported expired (its watermark, webhook_expiry_scan, is past the expiry): a logout
-- written late would add session.logged_out after session.expired. The watermark is read FOR SHARE,
-- once per batch and only by a batch with a revocation: a scan running meanwhile holds its row, and
-- the batch waits for it and reads what it reported (docs/design.md §11). Version 11.
-- A registration (`player add`, kind `register`) runs steps 1 to 4 only.
-- A nick taken by a concurrent transaction raises the unique violation instead, and the caller retries
-- the batch op by op, so that only that launch fails. No subtransactions: a batch of hundreds of
-- launches stays one plain transaction.
create or replace function poker_launch_write_batch(ops jsonb) returns jsonb language plpgsql
  set search_path from current as $$
declare
  op jsonb;
  profile jsonb;
  player players;
  created boolean;
  changed boolean;
  results jsonb[] := '{}';
  -- The batch's sessions, one element per launch in each array: the op's session, its client, its
  -- player, the player's currency, its time.
  new_sessions jsonb[] := '{}';
  session_clients text[] := '{}';
  session_players text[] := '{}';
  session_currencies text[] := '{}';
  session_times text[] := '{}';
  -- The launches that carry outbox rows, and whether each one's player was created or changed (the
  -- rows' conditions).
  outbox_ops jsonb[] := '{}';
  outbox_created boolean[] := '{}';
  outbox_changed boolean[] := '{}';
  -- The expiry scan's watermark, read at the batch's first revocation.
  expiry_scanned text;
  scan_read boolean := false;
begin
  for op in select value from jsonb_array_elements(ops) loop
    if op->>'kind' = 'revoke' then
      if not scan_read then
        select w.scanned_until into expiry_scanned from webhook_expiry_scan w where w.id = 1 for share;
        scan_read := true;
      end if;
      update sessions set revoked_at = op->>'at' where id = op->>'id' and revoked_at is null
        and expires_at > op->>'at' and (expiry_scanned is null or expires_at > expiry_scanned);
      results := results || '{"ok":true}'::jsonb;
      continue;
    end if;

    profile := op->'profile';
    if op->>'mode' = 'internal' then
      select * into player from players where client_id = op->>'clientId' and id = op->>'userId' for key share;
      if not found then
        results := results || '{"ok":false,"reason":"player_not_found"}'::jsonb;
        continue;
      end if;
      created := false;
    else
      select * into player from players where client_id = op->>'clientId' and external_id = op->>'userId' for key share;
      created := not found;
    end if;

    if created then
      -- Another player's nick: not this one's, registered meanwhile by a concurrent launch on another
      -- instance (committed after the lookup above), which goes on below as a returning player's launch.
      if profile ? 'nick_key' and exists (select 1 from players where nick_key = profile->>'nick_key'
          and not (client_id = op->>'clientId' and external_id = op->>'userId')) then
        results := results || '{"ok":false,"reason":"username_exists"}'::jsonb;
        continue;
      end if;
      changed := false;
    else
      -- Blocked: set, and with no end or an end still to come (ISO times of one width compare as text).
      if player.blocked_at is not null and (player.blocked_until is null or player.blocked_until > op->>'now') then
        results := results || '{"ok":false,"reason":"player_blocked"}'::jsonb;
        continue;
      end if;
      -- Every column sent holds the value sent: the profile's values are scalars, for which
      -- containment is equality (null included). One test instead of one JSON conversion per column.
      changed := not (to_jsonb(player) @> profile);
      if changed and profile ? 'nick_key' and exists (select 1 from players
          where nick_key = profile->>'nick_key' and id <> player.id) then
        results := results || '{"ok":false,"reason":"username_exists"}'::jsonb;
        continue;
      end if;
    end if;

    if op ? 'usedSignature' then
      insert into used_signatures (client_id, sign, expires_at)
        values (op->'usedSignature'->>'client_id', op->'usedSignature'->>'sign',
                op->'usedSignature'->>'expires_at')
        on conflict do nothing;
      if not found then
        results := results || '{"ok":false,"reason":"replayed"}'::jsonb;
        continue;
      end if;
    end if;

    if created then
      insert into players select * from jsonb_populate_record(null::players,
          jsonb_build_object('id', gen_random_uuid()::text, 'client_id', op->>'clientId',
            'external_id', op->>'userId', 'created_at', op->>'now', 'updated_at', op->>'now')
          || (op->'newPlayer') || profile)
        on conflict (client_id, external_id) do nothing;
      -- Not inserted: a concurrent launch registered the player first; this one is then a returning
      -- player's launch (a nick conflict of its update raises, and the launch is retried alone), read
      -- as one: under the lock a block waits for, and refused if a block was set meanwhile (the player
      -- could be blocked as soon as it was committed; its sign is then not spent).
      created := found;
      select * into player from players where client_id = op->>'clientId' and external_id = op->>'userId'
        for key share;
      if not created then
        if player.blocked_at is not null and (player.blocked_until is null or player.blocked_until > op->>'now') then
          if op ? 'usedSignature' then
            delete from used_signatures where client_id = op->'usedSignature'->>'client_id'
              and sign = op->'usedSignature'->>'sign';
          end if;
          results := results || '{"ok":false,"reason":"player_blocked"}'::jsonb;
          continue;
        end if;
        changed := not (to_jsonb(player) @> profile);
      end if;
    end if;

    if changed then
      -- The profile columns sent, whatever they are: one list of them lives in the application.
      player := jsonb_populate_record(player, profile || jsonb_build_object('updated_at', op->>'now'));
      execute (select format('update players set %s where id = ($1).id',
                             string_agg(format('%I = ($1).%I', col, col), ', '))
               from jsonb_object_keys(profile || '{"updated_at": null}') as col)
        using player;
    end if;

    if op->>'kind' = 'register' then
      results := results || jsonb_build_object('ok', true, 'playerId', player.id, 'currency', player.currency);
      continue;
    end if;

    new_sessions := new_sessions || (op->'session');
    session_clients := session_clients || (op->>'clientId');
    session_players := session_players || player.id;
    session_currencies := session_currencies || player.currency;
    session_times := session_times || (op->>'now');

    if op ? 'outbox' then
      outbox_ops := outbox_ops || op;
      outbox_created := outbox_created || created;
      outbox_changed := outbox_changed || changed;
    end if;
    results := results || jsonb_build_object('ok', true, 'playerId', player.id, 'currency', player.currency);
  end loop;
  insert into sessions (id, token_hash, client_id, player_id, external_session_id, api_version, game_code,
      table_id, game_id, auth_type, lang, currency, launch_options, long_life, user_ip, created_at,
      expires_at, api_user)
    select r->>'id', r->>'token_hash', client, player_id, r->>'external_session_id', r->>'api_version',
      r->>'game_code', (r->>'table_id')::integer, r->>'game_id', r->>'auth_type', r->>'lang', currency,
      r->>'launch_options', (r->>'long_life')::integer, r->>'user_ip', created_at, r->>'expires_at',
      r->>'api_user'
    from unnest(new_sessions, session_clients, session_players, session_currencies, session_times)
      as s(r, client, player_id, currency, created_at);
  insert into webhook_deliveries (id, endpoint_id, client_id, event_type, occurred_at, player_id,
      session_id, game_session_id, next_attempt_at, created_at)
    select e.id, e.endpoint_id, o.op->>'clientId', e.type, o.op->>'now', o.op->>'userId',
      case when e.type like 'session.%' then o.op->'session'->>'external_session_id' end,
      case when e.type like 'session.%' then o.op->'session'->>'id' end,
      o.op->>'now', o.op->>'now'
    from unnest(outbox_ops, outbox_created, outbox_changed) as o(op, player_created, player_changed),
      jsonb_array_elements(o.op->'outbox') as entry,
      lateral (select coalesce(entry->>0, entry->'row'->>'id') as id,
                      coalesce(entry->>1, entry->'row'->>'endpoint_id') as endpoint_id,
                      coalesce(entry->>2, entry->'row'->>'event_type') as type) as e
    where e.type = 'session.created'
      or (e.type = 'player.created' and o.player_created)
      or (e.type = 'player.updated' and o.player_changed);
  return to_jsonb(results);
end $$
