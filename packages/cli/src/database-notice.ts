import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Config, loadConfig } from '@poker-launch/server/admin';

type DatabaseConfig = Config['database'];

/** Every note starts with it, so a reader (or a script) tells them from a command's own output. */
export const DATABASE_NOTE_PREFIX = 'poker-launch: database ';

/**
 * What `serve` and `migrate` say on stderr about the database they are about to open, to print once it
 * is open: which one, unless it is the default next to the current directory (the one `npm start` uses
 * when started here); and that it did not exist, so a new, empty one is being created, which is what
 * running them from another directory than the service's does. Call it before opening. (The other
 * commands never create a database: see `missingDatabase`.)
 */
export function databaseNotes(database: DatabaseConfig, options: { serving: boolean }): string[] {
  const notes: string[] = [];
  if (!isDefaultHere(database))
    notes.push(`${DATABASE_NOTE_PREFIX}${describeDatabase(database)} (from DATABASE_URL)`);
  if (database.dialect === 'sqlite' && database.path !== ':memory:' && !existsSync(database.path)) {
    notes.push(
      `${DATABASE_NOTE_PREFIX}${resolve(database.path)} did not exist: a new, empty one was created` +
        (options.serving
          ? ''
          : ". To work on the service's database, run poker-launch where the service runs, or set DATABASE_URL to it"),
    );
  }
  return notes;
}

// The default (`sqlite:./data/poker-launch.db`) is what the configuration gives with nothing set.
const DEFAULT_DATABASE = loadConfig({}).database;

function isDefaultHere(database: DatabaseConfig): boolean {
  return (
    database.dialect === 'sqlite' &&
    DEFAULT_DATABASE.dialect === 'sqlite' &&
    resolve(database.path) === resolve(DEFAULT_DATABASE.path)
  );
}

/** The database as an operator recognises it: an absolute file path, or the URL without its passwords. */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.dialect === 'sqlite') {
    return `sqlite:${database.path === ':memory:' ? database.path : resolve(database.path)}`;
  }
  try {
    const url = new URL(database.url);
    if (url.password) url.password = '***';
    // PostgreSQL also reads a password from the query (?password=, ?sslpassword=).
    for (const name of [...url.searchParams.keys()]) {
      if (/password/i.test(name)) url.searchParams.set(name, '***');
    }
    return url.href;
  } catch {
    return 'a PostgreSQL database';
  }
}

/**
 * For the commands that only work on an existing database (all but `serve` and `migrate`): what to
 * say instead of creating an empty SQLite file where there is none, e.g. when run from a subdirectory.
 */
export function missingDatabase(database: DatabaseConfig): string | undefined {
  if (database.dialect !== 'sqlite' || database.path === ':memory:' || existsSync(database.path)) return;
  return (
    `no database at ${resolve(database.path)}: run poker-launch where the service runs, set DATABASE_URL ` +
    'to its database, or create a new one with "poker-launch migrate"'
  );
}
