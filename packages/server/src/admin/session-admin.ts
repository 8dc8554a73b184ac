import type { Db } from '../db/schema.js';
import { PURGE_BATCH_SIZE, purgeInBatches } from '../ops/purge.js';
import { purgeExpiredSessions } from '../sessions/session-purge.js';
import { loadSettings } from '../settings/setting.repository.js';

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
