import type { CompiledQuery } from '#kysely';
import { forUpdateSkipLocked } from '../db/row-locks.js';
import type { Db } from '../db/schema.js';

export interface PurgeBatch {
  /** Sessions that ended (expired, or were revoked) before this moment are deleted. */
  readonly before: Date;
  /** At most this many in one statement: a short transaction, short row locks. */
  readonly limit: number;
}

/**
 * The statement that deletes one batch of sessions that ended before `before`. Safe to run on several
 * instances at once: on PostgreSQL each picks rows nobody else holds (SKIP LOCKED), so none waits.
 * A session ends at its expiry or at its revocation, whichever came first.
 */
export function purgeStatement(db: Db, { before, limit }: PurgeBatch): CompiledQuery {
  const cutoff = before.toISOString();
  const ended = db
    .selectFrom('sessions')
    .select('id')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .limit(limit);
  return db.deleteFrom('sessions').where('id', 'in', forUpdateSkipLocked(db, ended)).compile();
}

/** Deletes one batch on this connection (the CLI's purge); returns how many. */
export async function purgeExpiredSessions(db: Db, batch: PurgeBatch): Promise<number> {
  const result = await db.executeQuery(purgeStatement(db, batch));
  return Number(result.numAffectedRows ?? 0);
}
