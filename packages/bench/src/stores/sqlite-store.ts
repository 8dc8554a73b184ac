import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  type BenchStore,
  SCATTER_A,
  SCATTER_B,
  SEED_LIFETIME_SECONDS,
  SEED_SPREAD_SECONDS,
  SESSIONS_PER_SEEDED_PLAYER,
} from './bench-store.js';

/** Rows per transaction while seeding: big, so that commits are few. */
const CHUNK = 1_000_000;

/** A fresh SQLite file in its own temporary folder. */
export async function createSqliteStore(): Promise<BenchStore> {
  const folder = await mkdtemp(join(tmpdir(), 'poker-launch-bench-'));
  const path = join(folder, 'poker-launch.db');
  return {
    dialect: 'sqlite',
    databaseUrl: `sqlite:${path}`,
    seedSessions: (clientId, count) => seedSqlite(path, clientId, count),
    drop: () => rm(folder, { recursive: true, force: true }),
  };
}

/**
 * One prepared INSERT … SELECT over a recursive counter per table, a million rows per transaction, no
 * fsync per commit. Nothing else has the file open (the service starts afterwards), so it can leave WAL
 * while seeding and go back to it afterwards, as the service keeps it.
 */
async function seedSqlite(path: string, clientId: string, count: number): Promise<void> {
  const db = new SQLite(path);
  try {
    // A rollback journal while seeding: WAL would write every page twice (log, then checkpoint), and
    // better-sqlite3's defensive mode refuses journal_mode=OFF.
    const mode = db.pragma('journal_mode = DELETE', { simple: true });
    if (mode !== 'delete') throw new Error(`could not leave WAL to seed (journal_mode is ${mode})`);
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -2000000');
    const players = Math.ceil(count / SESSIONS_PER_SEEDED_PLAYER);
    const now = Math.floor(Date.now() / 1000);
    const stamp = `strftime('%Y-%m-%dT%H:%M:%fZ', :now - (i % ${SEED_SPREAD_SECONDS}), 'unixepoch')`;
    const playerId = (n: string) =>
      `printf('%08x-0000-4000-8000-%012x', (${n}) * ${SCATTER_A} % 4294967296, ${n})`;
    const counter =
      'with recursive seq(i) as (select :first union all select i + 1 from seq where i < :last)';
    const insertPlayers = db.prepare(
      `insert into players (id, client_id, external_id, nick, nick_key, active, verified, created_at, updated_at)
       ${counter}
       select ${playerId('i')}, :clientId, printf('seed-%09d', i), printf('seed%09d', i), printf('seed%09d', i),
              1, 0, ${stamp}, ${stamp}
       from seq`,
    );
    const insertSessions = db.prepare(
      `insert into sessions (id, token_hash, client_id, player_id, external_session_id, api_version, game_code,
                             auth_type, lang, long_life, created_at, expires_at)
       ${counter}
       select printf('%08x%024x', i * ${SCATTER_A} % 4294967296, i),
              printf('%08x%056x', i * ${SCATTER_B} % 4294967296, i),
              :clientId, ${playerId(`i % ${players} + 1`)}, printf('seed-session-%d', i), 'v2', 'poker',
              'external', 'en', 0, ${stamp},
              strftime('%Y-%m-%dT%H:%M:%fZ', :now - (i % ${SEED_SPREAD_SECONDS}) + ${SEED_LIFETIME_SECONDS}, 'unixepoch')
       from seq`,
    );
    for (const [statement, total] of [
      [insertPlayers, players],
      [insertSessions, count],
    ] as const) {
      for (let first = 1; first <= total; first += CHUNK) {
        const last = Math.min(total, first + CHUNK - 1);
        db.transaction(() => statement.run({ first, last, clientId, now }))();
        await setImmediate(); // the driver is synchronous: let an interrupt through between chunks
      }
    }
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  // On disk before the service starts: the write-back of gigabytes must not stall its first rounds' fsyncs.
  const file = await open(path, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}
