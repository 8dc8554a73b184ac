import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';

/** Pages SQLite may keep in memory per connection, in KiB: big indexes stay hot as the store grows. */
const CACHE_SIZE_KIB = 64 * 1024;

/**
 * The session writer's page cache, in KiB: smaller on purpose. When an insert splits a B-tree page,
 * SQLite renumbers the new pages through a spare page number (balance_nonroot: the page after the
 * 1 GiB lock byte), which lies past the end of any file under 1 GiB, and the commit that follows then
 * walks the whole page cache to drop pages past the end (pcache1TruncateUnsafe): with 64 MiB that walk
 * was a tenth of the writer's CPU. Too small a cache costs reads instead: with 10,000,000 stored
 * sessions, 2,000 KiB added nearly twice the extra CPU per launch (over an empty store) that 64 MiB did.
 * 16 MiB came close to the best at both 1,000,000 and 10,000,000 stored sessions.
 */
export const WRITER_CACHE_SIZE_KIB = 16 * 1024;

/**
 * How long a statement waits for another connection's write lock before it fails with SQLITE_BUSY (the
 * service answers 503): the writer thread's own commits last milliseconds, so this is only ever reached
 * when another process holds the database (docs/operations.md, "Database outages").
 */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens a connection to the database file with the settings every connection of the service uses.
 * `cacheSizeKib`: its page cache (the writer's is smaller, see WRITER_CACHE_SIZE_KIB).
 */
export function openSqliteConnection(path: string, cacheSizeKib = CACHE_SIZE_KIB): SQLite.Database {
  if (path !== ':memory:') createPrivately(path);
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before the response that confirms it; NORMAL could lose it on power loss.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`cache_size = -${cacheSizeKib}`);
  return sqlite;
}

/**
 * A new database file (and any folder made for it) is its owner's alone, whatever the umask: it holds the
 * clients' and webhooks' secrets and players' personal fields, and SQLite gives its -wal and -shm files
 * the database file's mode. An existing file keeps its mode (`serve` warns when others may read it).
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch {
    // There already (EEXIST), or not ours to make (a folder we may not write): SQLite's own open says why.
  }
}
