import { sql } from '#kysely';
import type { Db } from '../db/schema.js';

/** Longest a readiness probe waits for the database: a probe must answer fast, even during an outage. */
export const READINESS_TIMEOUT_MS = 1000;

/**
 * Whether the database answers a trivial query within the timeout. Probes that arrive while one is
 * running share it, so a burst of probes (several balancers, a tight interval) costs one query.
 */
export function databaseProbe(db: Db, timeoutMs = READINESS_TIMEOUT_MS): () => Promise<boolean> {
  let running: Promise<boolean> | undefined;
  return () => {
    running ??= probe(db, timeoutMs).finally(() => {
      running = undefined;
    });
    return running;
  };
}

async function probe(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
