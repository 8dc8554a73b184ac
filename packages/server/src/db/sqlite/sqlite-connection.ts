import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';

/** Pages SQLite may keep in memory per connection (negative: KiB): big indexes stay hot as the store grows. */
const CACHE_SIZE_KIB = 64 * 1024;
/**
 * WAL pages written before a commit copies them back into the database file (SQLite's default: 1,000).
 * Every batch of launches rewrites the same last pages of the sessions table and its time-ordered
 * indexes; a longer WAL copies each of them back once per checkpoint instead of once per 1,000 pages:
 * ~20 % fewer bytes written per launch and shorter batches (measured: docs/operations.md). The WAL file
 * grows to ~40 MB (4 KiB pages) and is reused from its start after each checkpoint.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** Opens a connection to the database file with the settings every connection of the service uses. */
export function openSqliteConnection(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before the response that confirms it; NORMAL could lose it on power loss.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`cache_size = -${CACHE_SIZE_KIB}`);
  return sqlite;
}
