import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';

/** Pages SQLite may keep in memory per connection (negative: KiB): big indexes stay hot as the store grows. */
const CACHE_SIZE_KIB = 64 * 1024;

/** Opens a connection to the database file with the settings every connection of the service uses. */
export function openSqliteConnection(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before the response that confirms it; NORMAL could lose it on power loss.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`cache_size = -${CACHE_SIZE_KIB}`);
  return sqlite;
}
