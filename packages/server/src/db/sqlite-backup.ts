import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupReport {
  /** Database pages copied. */
  pages: number;
  /** What `PRAGMA integrity_check` said of the copy: `ok` (a copy that fails it is not kept). */
  integrity: string;
  /** Partial copies of `destination` that interrupted backups left, removed before this one. */
  removed: string[];
  /** The first folder it created for `destination` (as `mkdir -p`), if its folder did not exist. */
  createdFolder: string | undefined;
}

/**
 * A consistent copy of a SQLite database that a service is writing to, by SQLite's online backup API.
 * The copy is made in one step, so it is one snapshot (in WAL mode the service keeps writing meanwhile),
 * under a temporary name, readable by the owner only (it holds client secrets), then checked and
 * renamed into place: a file at `destination` is always a complete copy that passed integrity_check, and
 * the only file it leaves.
 */
export async function backupSqlite(sourcePath: string, destination: string): Promise<BackupReport> {
  if (existsSync(destination)) throw new Error(`${destination} exists; choose a new file name`);
  const folder = dirname(destination);
  // Before anything is written there: a folder it cannot make fails the backup with nothing to clean up.
  const createdFolder = await createFolder(folder);
  // The process id tells a later backup whether the one that wrote it still runs.
  const partial = `${destination}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  let source: SQLite.Database | undefined;
  try {
    source = new SQLite(sourcePath, { fileMustExist: true });
    const removed = await removeInterrupted(destination);
    source.pragma('busy_timeout = 5000');
    await writeFile(partial, '', { mode: 0o600, flag: 'wx' });
    // After the first (sizing) step, copy every remaining page at once: a backup copied in several
    // steps restarts whenever another connection writes between them, forever under steady load.
    const { totalPages } = await source.backup(partial, { progress: () => 0x7fffffff });
    const integrity = settleAndCheck(partial);
    // Under the chosen name, a restore (or a script taking the newest backup) would trust it.
    if (integrity !== 'ok') {
      throw new Error(
        `the copy failed integrity_check (${integrity}) and was not kept; check the database itself: sqlite3 <file> "pragma integrity_check"`,
      );
    }
    await chmod(partial, 0o600);
    await rename(partial, destination);
    return { pages: totalPages, integrity, removed, createdFolder };
  } catch (error) {
    await Promise.all(
      ['', '-journal', ...WAL_FILES].map((suffix) => rm(`${partial}${suffix}`, { force: true })),
    );
    if (createdFolder !== undefined) await removeEmptyFolders(folder, createdFolder);
    throw error;
  } finally {
    source?.close();
  }
}

/**
 * The destination's folder, made as `mkdir -p` makes it when it does not exist (a dated folder of a
 * nightly job, the `./backups` of the help's example), and its owner's only: the copy holds client
 * secrets (docs/operations.md, "Backups and restore"). A path through a file, or a folder it may not
 * make, is one line naming that folder, not ENOENT on a temporary file the operator never chose.
 */
async function createFolder(folder: string): Promise<string | undefined> {
  try {
    return await mkdir(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    // "ENOTDIR: not a directory", without the ", mkdir '…'" that names the path again.
    const reason = error instanceof Error ? error.message.replace(/, mkdir .*$/, '') : String(error);
    throw new Error(`cannot create the directory ${folder}: ${reason}`);
  }
}

/** A failed backup leaves no folder it made: each, deepest first, removed if it is still empty. */
async function removeEmptyFolders(folder: string, created: string): Promise<void> {
  for (let path = resolve(folder); ; path = dirname(path)) {
    await rmdir(path).catch(() => undefined);
    if (path === resolve(created) || dirname(path) === path) return;
  }
}

/**
 * A backup killed midway (kill -9, the OOM killer, a timeout) cannot remove its partial copy, as big as the
 * database: the next backup to the same name removes those whose process is gone, with their journal.
 */
async function removeInterrupted(destination: string): Promise<string[]> {
  const folder = dirname(destination);
  const partial = new RegExp(
    `^${escapeRegExp(basename(destination))}\\.partial-(\\d+)-[0-9a-f]{8}(-journal|-wal|-shm)?$`,
  );
  const removed: string[] = [];
  for (const name of await readdir(folder)) {
    const match = partial.exec(name);
    if (!match || isRunning(Number(match[1]))) continue;
    await rm(join(folder, name), { force: true });
    if (match[2] === undefined) removed.push(join(folder, name));
  }
  return removed.sort();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The files SQLite keeps beside a database in WAL mode. */
const WAL_FILES = ['-wal', '-shm'] as const;

/**
 * The copy carries the source's WAL mode, in which every connection that opens it makes `-wal` and `-shm`
 * files beside it (left behind under the temporary name). Turned back to a rollback journal, it is one
 * self-contained file, and SQLite removes those files as the mode changes; the service turns WAL on again
 * when it opens a restored copy. Then `PRAGMA integrity_check` on the same connection.
 */
function settleAndCheck(path: string): string {
  const copy = new SQLite(path, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    return String(copy.pragma('integrity_check', { simple: true }));
  } finally {
    copy.close();
  }
}
