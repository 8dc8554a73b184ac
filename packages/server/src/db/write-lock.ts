import { sql } from '#kysely';
import { dialectOf } from './dialect-of.js';
import type { Db } from './schema.js';

/**
 * SQLite: makes a transaction's first statement a write (one that changes nothing), so it holds the
 * write lock from its start. A transaction that reads first and writes later must upgrade its read
 * snapshot, and SQLite refuses that at once ("database is locked", whatever busy_timeout says) when the
 * session writer committed in between; taken first, the lock waits for the writer like any write.
 * PostgreSQL locks rows as it writes them: nothing to do.
 */
export async function takeWriteLock(trx: Db): Promise<void> {
  if (dialectOf(trx) === 'sqlite')
    await sql`update config_version set version = version where 0 = 1`.execute(trx);
}
