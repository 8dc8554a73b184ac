import { existsSync, realpathSync, type Stats, statSync } from 'node:fs';
import { chmod, chown, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { migrationNames } from './migrations.js';
import type { Db } from './schema.js';
import { openSqlite } from './sqlite/open-sqlite.js';
import { backupSqlite } from './sqlite-backup.js';

export interface RestoreReport {
  /** Database pages put in place. */
  pages: number;
  /** Where the database that was there went (with its `-wal` and `-shm`, if any); undefined: there was none. */
  previous: string | undefined;
  /** Migrations this version has that the backup lacks: `serve` (or `migrate`) applies them. */
  pending: string[];
  /**
   * The owner the database had, when the restored file could not be given it (only root can give a
   * file away): the service, running as that owner, may not open it until the operator does.
   */
  ownerNotKept: { uid: number; gid: number } | undefined;
}

/**
 * Puts a backup made by `backupSqlite` in place of a SQLite database, for a service that is stopped
 * (docs/design.md, "Restoring a SQLite backup"). The backup is copied beside the database and checked
 * (integrity, a poker-launch schema this version can run) before anything is moved; then the database
 * and the `-wal` and `-shm` files beside it move aside together, so no write-ahead log of the old
 * database is ever read as the restored one's, and they stay the way back; then the copy takes the
 * database's name. The backup itself is only read.
 */
export async function restoreSqlite(
  backupPath: string,
  databasePath: string,
  {
    now,
    beforePlacing,
  }: {
    now: Date;
    /** Writes to the checked copy before it takes the database's name (the restore's audit record). */
    beforePlacing: (copy: Db, restore: Pick<RestoreReport, 'previous' | 'pending'>) => Promise<void>;
  },
): Promise<RestoreReport> {
  if (!existsSync(backupPath)) throw new Error(`there is no file ${backupPath}`);
  const present = existsSync(databasePath);
  if (present && realpathSync(backupPath) === realpathSync(databasePath)) {
    throw new Error(`${backupPath} is the database itself; name a backup`);
  }
  // The service runs as the database's owner: the restored file takes its owner and mode.
  const original = present ? statSync(databasePath) : undefined;
  if (present) settleUnused(databasePath);
  else if (!existsSync(dirname(databasePath))) {
    throw new Error(`there is no directory ${dirname(databasePath)}; create it first`);
  }

  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const staged = `${databasePath}.restoring-${stamp}`;
  const previous = present ? `${databasePath}.before-restore-${stamp}` : undefined;
  let pages: number;
  let pending: string[];
  let ownerNotKept: RestoreReport['ownerNotKept'];
  try {
    ({ pages } = await backupSqlite(backupPath, staged).catch((error: unknown) => {
      throw new Error(`${backupPath} cannot be restored: ${messageOf(error)}`);
    }));
    pending = pendingMigrations(staged, backupPath);
    const copy = openSqlite(staged);
    try {
      await beforePlacing(copy.db, { previous, pending });
    } finally {
      await copy.close();
    }
    if (original !== undefined) ownerNotKept = await takeOwnerAndMode(staged, original);
    await syncFile(staged);
  } catch (error) {
    await rm(staged, { force: true });
    throw error;
  }

  if (previous !== undefined) await moveWithLog(databasePath, previous);
  try {
    await rename(staged, databasePath);
  } catch (error) {
    if (previous !== undefined) await moveWithLog(previous, databasePath);
    await rm(staged, { force: true });
    throw error;
  }
  await syncFile(dirname(databasePath));
  return { pages, previous, pending, ownerNotKept };
}

/** Gives `path` the owner and mode of `original`; the owner it could not give, if any. */
async function takeOwnerAndMode(path: string, original: Stats): Promise<RestoreReport['ownerNotKept']> {
  const owner = { uid: original.uid, gid: original.gid };
  const current = statSync(path);
  let kept = true;
  if (current.uid !== owner.uid || current.gid !== owner.gid) {
    kept = await chown(path, owner.uid, owner.gid).then(
      () => true,
      (error: unknown) => {
        if ((error as { code?: unknown }).code === 'EPERM') return false;
        throw error;
      },
    );
  }
  await chmod(path, original.mode & 0o777);
  return kept ? undefined : owner;
}

/** A database file and the `-wal` and `-shm` files beside it, moved together. */
async function moveWithLog(from: string, to: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(`${from}${suffix}`)) await rename(`${from}${suffix}`, `${to}${suffix}`);
  }
}

/**
 * Refuses a database another connection has open (a running service), then folds its write-ahead log
 * into the file: a connection in exclusive locking mode gets the lock only when it is the database's only
 * one, and as the last to close it checkpoints the log and removes the `-wal` and `-shm` files.
 */
function settleUnused(databasePath: string): void {
  let database: SQLite.Database;
  try {
    database = new SQLite(databasePath, { fileMustExist: true });
  } catch (error) {
    throw new Error(`${databasePath} cannot be opened: ${messageOf(error)}`);
  }
  try {
    database.pragma('busy_timeout = 0');
    database.pragma('locking_mode = EXCLUSIVE');
    database.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new Error(
        `${databasePath} is in use (a running poker-launch serve, or another program, has it open); stop the service first`,
      );
    }
    // A file that is not a database: it moves aside like any other.
    if ((error as { code?: unknown }).code !== 'SQLITE_NOTADB') throw error;
  } finally {
    database.close();
  }
}

/** The migrations the restored copy lacks; refuses a copy that is not poker-launch's, or is newer. */
function pendingMigrations(copyPath: string, backupPath: string): string[] {
  const copy = new SQLite(copyPath, { fileMustExist: true, readonly: true });
  try {
    const table = copy
      .prepare("select 1 from sqlite_schema where type = 'table' and name = 'kysely_migration'")
      .get();
    if (table === undefined) {
      throw new Error(`${backupPath} is not a poker-launch database: it has no migration table`);
    }
    const applied = new Set(
      copy
        .prepare('select name from kysely_migration')
        .pluck()
        .all()
        .map((name) => String(name)),
    );
    const known = migrationNames('sqlite');
    const newer = [...applied].filter((name) => !known.includes(name)).sort();
    if (newer.length > 0) {
      throw new Error(
        `${backupPath} was made by a later version (it has migrations this one does not know: ${newer.join(', ')}); restore it with that version`,
      );
    }
    return known.filter((name) => !applied.has(name));
  } finally {
    copy.close();
  }
}

/** A rename is durable only once the directory is written; the copy only once the file is. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
