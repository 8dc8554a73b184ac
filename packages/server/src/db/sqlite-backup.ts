import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import SQLite from 'better-sqlite3';

export interface BackupReport {
  /** Database pages copied. */
  pages: number;
  /** What `PRAGMA integrity_check` said of the copy: `ok`, or the first problem it found. */
  integrity: string;
}

/**
 * A consistent copy of a SQLite database that a service is writing to, by SQLite's online backup API.
 * The copy is made in one step, so it is one snapshot (in WAL mode the service keeps writing meanwhile),
 * under a temporary name, readable by the owner only (it holds client secrets), then checked and
 * renamed into place: a file at `destination` is always a complete copy.
 */
export async function backupSqlite(sourcePath: string, destination: string): Promise<BackupReport> {
  if (existsSync(destination)) throw new Error(`${destination} exists; choose a new file name`);
  const source = new SQLite(sourcePath, { fileMustExist: true });
  const partial = `${destination}.partial-${randomBytes(4).toString('hex')}`;
  try {
    source.pragma('busy_timeout = 5000');
    await writeFile(partial, '', { mode: 0o600, flag: 'wx' });
    // After the first (sizing) step, copy every remaining page at once: a backup copied in several
    // steps restarts whenever another connection writes between them, forever under steady load.
    const { totalPages } = await source.backup(partial, { progress: () => 0x7fffffff });
    const integrity = checkIntegrity(partial);
    await chmod(partial, 0o600);
    await rename(partial, destination);
    return { pages: totalPages, integrity };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
}

function checkIntegrity(path: string): string {
  const copy = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    return String(copy.pragma('integrity_check', { simple: true }));
  } finally {
    copy.close();
  }
}
