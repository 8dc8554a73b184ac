import type { Transaction } from '#kysely';
import type { DatabaseSchema, Db } from './schema.js';
import { takeWriteLock } from './write-lock.js';

/**
 * Runs `work` in the transaction `db` already is (an audited admin change, admin/audited.ts), or in a
 * new one: code that writes more than once can be called either way.
 */
export async function withinTransaction<T>(
  db: Db,
  work: (trx: Transaction<DatabaseSchema>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<DatabaseSchema>);
  return db.transaction().execute(async (trx) => {
    await takeWriteLock(trx);
    return work(trx);
  });
}
