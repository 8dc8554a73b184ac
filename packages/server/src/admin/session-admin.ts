import type { Db } from '../db/schema.js';
import { transactionStatements } from '../db/write-statements.js';
import { PURGE_BATCH_SIZE, purgeInBatches } from '../ops/purge.js';
import { endPlayerSessions, endSession } from '../session-control/session-end.js';
import { findSessionById } from '../sessions/session.repository.js';
import { purgeExpiredSessions } from '../sessions/session-purge.js';
import { loadSettings } from '../settings/setting.repository.js';
import { type AdminResult, fail, succeed } from './admin-result.js';

export interface PurgeReport {
  removed: number;
  /** Sessions that ended before this moment were deleted. */
  endedBefore: Date;
  retentionSeconds: number;
}

/**
 * What every instance does in the background, at once and to the end: deletes, batch by batch, the
 * sessions that ended (expired or revoked) more than ExpiredSessionRetention ago.
 */
export async function purgeEndedSessions(db: Db, now: Date): Promise<PurgeReport> {
  const retentionSeconds = (await loadSettings(db)).ExpiredSessionRetention;
  const endedBefore = new Date(now.getTime() - retentionSeconds * 1000);
  const removed = await purgeInBatches((batch) => purgeExpiredSessions(db, batch), {
    before: endedBefore,
    batchSize: PURGE_BATCH_SIZE,
  });
  return { removed, endedBefore, retentionSeconds };
}

/**
 * Ends one session as a logout does (its token stops working on every instance at its next check);
 * ending one that ended already changes nothing and says so.
 */
export async function endSessionChange(
  db: Db,
  input: { sessionId: string },
  now: Date,
): Promise<AdminResult<{ ended: boolean }>> {
  const session = await findSessionById(db, input.sessionId);
  if (!session) return fail(`no session ${input.sessionId}`);
  // The session-control write: the end is reported as the operator's (revoke_reason, webhooks).
  return succeed({
    ended: await endSession(transactionStatements(db), db, input.sessionId, 'operator', now),
  });
}

/** Ends every live session of one player. */
export async function endPlayerSessionsChange(
  db: Db,
  input: { playerId: string },
  now: Date,
): Promise<AdminResult<{ ended: number }>> {
  return succeed({
    ended: await endPlayerSessions(transactionStatements(db), db, input.playerId, 'operator', now),
  });
}
