import { statSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';

/**
 * At start, on SQLite: warns when users other than the file's owner may read or write the database file.
 * It holds the clients' and webhooks' secrets and players' personal fields; a new one is made 0600
 * (sqlite-connection.ts), one made before, or by another tool, keeps the mode it has (docs/operations.md, "What is stored how").
 */
export function warnOfReadableStore(path: string, log: FastifyBaseLogger): void {
  if (path === ':memory:') return;
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return;
  }
  if ((mode & 0o066) === 0) return;
  log.warn(
    { path, mode: mode.toString(8).padStart(4, '0') },
    "other users of this machine may read the SQLite database, which holds the clients' secrets: " +
      'chmod 600 the file and its -wal and -shm files',
  );
}
