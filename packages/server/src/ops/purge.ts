import type { PurgeBatch } from '../sessions/session-purge.js';

/** Sessions one purge statement deletes at most: a short transaction, with short row locks. */
export const PURGE_BATCH_SIZE = 500;

/** Deletes one batch of ended sessions and says how many: `purgeExpiredSessions` bound to a database. */
export type PurgeBatchFunction = (batch: PurgeBatch) => Promise<number>;

export interface PurgeRun {
  /** Sessions that ended before this moment go. */
  readonly before: Date;
  readonly batchSize?: number;
  /** Stop after this many batches even if more remain (the background job spreads its work). */
  readonly maxBatches?: number;
  /** Between two batches, e.g. a pause that leaves the database to the launches. */
  readonly betweenBatches?: () => Promise<void>;
  /** Asked before each batch: false stops the run (the instance is shutting down). */
  readonly keepGoing?: () => boolean;
}

/** Runs batches until one comes back short (nothing more to purge) or a limit says stop; returns the total. */
export async function purgeInBatches(purgeBatch: PurgeBatchFunction, run: PurgeRun): Promise<number> {
  const limit = run.batchSize ?? PURGE_BATCH_SIZE;
  const maxBatches = run.maxBatches ?? Number.POSITIVE_INFINITY;
  let total = 0;
  for (let batches = 0; batches < maxBatches && (run.keepGoing?.() ?? true); batches++) {
    if (batches > 0) await run.betweenBatches?.();
    const removed = await purgeBatch({ before: run.before, limit });
    total += removed;
    if (removed < limit) break;
  }
  return total;
}
