import { forUpdateSkipLocked } from '../db/row-locks.js';
import type { Db } from '../db/schema.js';

export interface PurgeBatch {
  /** Sessions that ended (expired, or were revoked) before this moment are deleted. */
  readonly before: Date;
  /** At most this many in one statement: a short transaction, short row locks. */
  readonly limit: number;
}

/**
 * Deletes one batch of sessions that ended before `before`; returns how many. Safe to run on several
 * instances at once: on PostgreSQL each picks rows nobody else holds (SKIP LOCKED), so none waits.
 * A session ends at its expiry or at its revocation, whichever came first.
 */
export async function purgeExpiredSessions(db: Db, { before, limit }: PurgeBatch): Promise<number> {
  const cutoff = before.toISOString();
  const ended = db
    .selectFrom('sessions')
    .select('id')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .limit(limit);
  const result = await db
    .deleteFrom('sessions')
    .where('id', 'in', forUpdateSkipLocked(db, ended))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
