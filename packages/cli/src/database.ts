import { hostname, userInfo } from 'node:os';
import {
  type Actor,
  type Admin,
  adminAs,
  SQLITE_BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS,
  type Database,
  type Db,
  isDatabaseUnavailable,
  loadConfig,
  type OpenDatabaseOptions,
  openDatabase,
  schemaBehindMessage,
} from '@poker-launch/server/admin';
import { type CommandContext, CommandError } from './command.js';
import { databaseNotes, missingDatabase } from './database-notice.js';
import { tlsProblem } from './database-tls.js';

type DatabaseConfig = ReturnType<typeof loadConfig>['database'];

/**
 * Opens the database the server uses (DATABASE_URL), runs `work` and closes it, whatever happens. It
 * never creates nor migrates one: a missing SQLite file or a schema behind this version is refused with
 * what to do. Says on stderr which database, unless it is the default here.
 */
export async function withDatabase<T>(
  context: CommandContext,
  work: (db: Db) => Promise<T>,
  options: OpenDatabaseOptions & {
    /** What to say of a schema a later version migrated, refused; by default it is used as it is. */
    refuseNewer?: (names: string) => string;
  } = {},
): Promise<T> {
  const { refuseNewer, ...openOptions } = options;
  const missing = missingDatabase(loadConfig(context.env).database);
  if (missing !== undefined) throw new CommandError(missing);
  return withOpenDatabase(
    context,
    async (database) => {
      const status = await database.migrationStatus();
      const pending = status.filter((migration) => !migration.appliedAt);
      if (pending.length > 0) throw new CommandError(schemaBehindMessage(pending));
      const newer = status.filter((migration) => migration.newer);
      if (refuseNewer !== undefined && newer.length > 0) {
        throw new CommandError(refuseNewer(newer.map((migration) => migration.name).join(', ')));
      }
      return work(database.db);
    },
    openOptions,
  );
}

/**
 * `withDatabase` for a command that changes something: the change runs as the operating-system user
 * at this host, and the audit log says so.
 */
export function withAdmin<T>(context: CommandContext, work: (admin: Admin) => Promise<T>): Promise<T> {
  return withDatabase(context, (db) => work(adminAs(db, cliActor(context.env))));
}

/** Who runs the command: the account's name (and who became it through sudo), at this host. */
export function cliActor(env: CommandContext['env']): Actor {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    // A container's uid without a passwd entry.
    user = env.USER ?? env.LOGNAME ?? `uid ${process.getuid?.() ?? '?'}`;
  }
  const sudo = env.SUDO_USER;
  return {
    via: 'cli',
    name: sudo !== undefined && sudo !== user ? `${user} (sudo by ${sudo})` : user,
    address: hostname(),
  };
}

/** The database as it is, whatever its schema, created if need be (for `migrate`). */
export async function withOpenDatabase<T>(
  context: CommandContext,
  work: (database: Database) => Promise<T>,
  options: OpenDatabaseOptions = {},
): Promise<T> {
  const config = loadConfig(context.env);
  const notes = databaseNotes(config.database, { serving: false });
  const database = await openDatabase(config.database, options).catch((error: unknown) => {
    throw new CommandError(
      tlsProblem(error, config.database) ?? `cannot open the database: ${databaseProblem(error)}`,
    );
  });
  for (const note of notes) context.err(note);
  try {
    return await work(database);
  } catch (error) {
    const tls = tlsProblem(error, config.database);
    if (tls !== undefined) throw new CommandError(tls);
    // A PostgreSQL pool connects at its first query, so a database that is down, unknown or refuses the
    // role fails here, not in openDatabase: one line that says so, not the driver's stack trace.
    if (!(error instanceof CommandError) && isDatabaseUnavailable(error)) {
      throw new CommandError(
        isReadOnlyFile(error)
          ? `cannot write the database: ${databaseProblem(error)}`
          : isLockedFile(error)
            ? `the database is locked: another process has held it for writing for ${BUSY_TIMEOUT_MS / 1000} s (a transaction left open, a sqlite3 shell); nothing was changed: try again once it lets go`
            : `cannot reach the database: ${messageOf(error)}${unreachableAdvice(error, config.database)}`,
      );
    }
    // PostgreSQL's insufficient_privilege: the schema made by another role, e.g. migrated as a superuser.
    if (!(error instanceof CommandError) && (error as { code?: unknown } | null)?.code === '42501') {
      const role = config.database.dialect === 'postgres' ? new URL(config.database.url).username : '';
      throw new CommandError(
        `the database refuses ${role === '' ? 'this role' : `role ${decodeURIComponent(role)}`}: ${messageOf(error)}; the role in DATABASE_URL must own the service's tables (docs/operations.md, "PostgreSQL")`,
      );
    }
    throw error;
  } finally {
    await database.close();
  }
}

/**
 * What to do about a PostgreSQL that refuses the connection or has no such database (the driver says
 * only what went wrong); nothing for other failures.
 */
export function unreachableAdvice(
  error: unknown,
  database: DatabaseConfig,
  options: { serving?: boolean } = {},
): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return '; check that PostgreSQL runs at the host and port DATABASE_URL names';
  if (code === '3D000' && database.dialect === 'postgres') {
    const name = decodeURIComponent(new URL(database.url).pathname.slice(1));
    // serve creates the tables of an empty database itself (unless MIGRATE_ON_START=false, which says so).
    return options.serving
      ? `; create it first (createdb ${name}, owned by the service's role: docs/operations.md, "PostgreSQL"), or set DATABASE_URL to the service's database`
      : `; create it (createdb ${name}) and run "poker-launch migrate", or set DATABASE_URL to the service's database`;
  }
  return '';
}

/**
 * SQLite's answer when another connection kept its write lock past the busy timeout. A running serve
 * does not: it holds it for a transaction's milliseconds (WAL lets readers and one writer share the file).
 */
function isLockedFile(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/** SQLite's answer when the file (or its -wal, -shm or folder) cannot be written by this process. */
function isReadOnlyFile(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_READONLY');
}

/**
 * SQLite's answer when the file cannot be opened at all: among other causes, one this user may not read
 * (a new store is its creator's alone, mode 0600: docs/operations.md, "What is stored how").
 */
function isUnopenableFile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CANTOPEN';
}

/** A database error in one line, with what to do about a SQLite file this user cannot read or write. */
export function databaseProblem(error: unknown): string {
  if (isReadOnlyFile(error)) {
    return `${messageOf(error)}: the SQLite file, its -wal and -shm files and its folder must be writable by the user that runs poker-launch (run the CLI as the service's own user)`;
  }
  if (isUnopenableFile(error)) {
    return `${messageOf(error)}: the SQLite file, its -wal and -shm files and its folder must be readable and writable by the user that runs poker-launch (run the CLI as the service's own user)`;
  }
  return messageOf(error);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
