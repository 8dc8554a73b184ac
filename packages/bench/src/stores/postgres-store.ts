import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  type BenchStore,
  SCATTER_A,
  SCATTER_B,
  SEED_LIFETIME_SECONDS,
  SEED_SPREAD_SECONDS,
  SESSIONS_PER_SEEDED_PLAYER,
} from './bench-store.js';

const CHUNK = 1_000_000;

/** A fresh database on the server `serverUrl` names, of its own name, dropped at the end. */
export async function createPostgresStore(serverUrl: string): Promise<BenchStore> {
  const name = `poker_launch_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  await runOn(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    dialect: 'postgres',
    databaseUrl: url.href,
    seedSessions: (clientId, count) => runOn(url.href, (client) => seedPostgres(client, clientId, count)),
    drop: async () => {
      await runOn(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function runOn<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * INSERT … SELECT over generate_series, a million rows per statement, then VACUUM ANALYZE and a
 * checkpoint: the store the service meets is in the steady state of a long-running database, not one
 * that autovacuum or a checkpoint is about to rewrite in the middle of a measurement.
 */
async function seedPostgres(client: pg.Client, clientId: string, count: number): Promise<void> {
  await client.query('SET synchronous_commit = off');
  const players = Math.ceil(count / SESSIONS_PER_SEEDED_PLAYER);
  const now = Math.floor(Date.now() / 1000);
  const stamp = (offset: number) =>
    `to_char(to_timestamp($4::bigint - (i % ${SEED_SPREAD_SECONDS}) + ${offset}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const hex = (value: string, width: number) => `lpad(to_hex(${value}), ${width}, '0')`;
  const playerId = (n: string) =>
    `${hex(`(${n}) * ${SCATTER_A} % 4294967296`, 8)} || '-0000-4000-8000-' || ${hex(n, 12)}`;
  const insertPlayers = `
    insert into players (id, client_id, external_id, nick, nick_key, active, verified, created_at, updated_at)
    select ${playerId('i')}, $1, 'seed-' || lpad(i::text, 9, '0'), 'seed' || lpad(i::text, 9, '0'),
           'seed' || lpad(i::text, 9, '0'), 1, 0, ${stamp(0)}, ${stamp(0)}
    from generate_series($2::bigint, $3::bigint) as i`;
  const insertSessions = `
    insert into sessions (id, token_hash, client_id, player_id, external_session_id, api_version, game_code,
                          auth_type, lang, long_life, created_at, expires_at)
    select ${hex(`i * ${SCATTER_A} % 4294967296`, 8)} || ${hex('i', 24)},
           ${hex(`i * ${SCATTER_B} % 4294967296`, 8)} || ${hex('i', 56)},
           $1, ${playerId(`i % ${players} + 1`)}, 'seed-session-' || i, 'v2', 'poker', 'external', 'en', 0,
           ${stamp(0)}, ${stamp(SEED_LIFETIME_SECONDS)}
    from generate_series($2::bigint, $3::bigint) as i`;
  for (const [statement, total] of [
    [insertPlayers, players],
    [insertSessions, count],
  ] as const) {
    for (let first = 1; first <= total; first += CHUNK) {
      await client.query(statement, [clientId, first, Math.min(total, first + CHUNK - 1), now]);
    }
  }
  await client.query('VACUUM ANALYZE players, sessions');
  // Written out now rather than by a checkpoint in the middle of a measured round (needs a superuser).
  await client.query('CHECKPOINT').catch(() => undefined);
}
