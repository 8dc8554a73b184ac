import { sql } from '#kysely';
import type { Db } from '../db/schema.js';

/**
 * Waits until a statement on this database waits on a lock (pg_stat_activity says so), or `settled()`
 * says the work watched ended without waiting; 10 s at most. PostgreSQL only.
 */
export async function untilWaitingOnLock(db: Db, settled: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!settled() && Date.now() < deadline) {
    const { rows } = await sql<{ waiting: string }>`
      select count(*) as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if (Number(rows[0]?.waiting) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
