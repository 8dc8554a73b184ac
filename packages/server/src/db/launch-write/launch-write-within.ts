import { sql } from '#kysely';
import { checkedWriteOutcomes } from '../checked-write-outcomes.js';
import type { Db } from '../schema.js';
import type { LaunchOutcome, RegisterWrite, WriteOutcome } from '../session-store.js';
import { sqliteConnectionOf } from '../sqlite/connected-sqlite-dialect.js';
import type { FailedOperation } from './sqlite-batch-writer.js';
import { SqliteBatchWriter } from './sqlite-batch-writer.js';

/**
 * Runs a registration through the launch write (docs/design.md §10), in the transaction `trx` is (an
 * audited `player add`): on PostgreSQL one call of the function, on SQLite the writer on the
 * transaction's own connection.
 */
export async function registerWithin(trx: Db, write: RegisterWrite): Promise<LaunchOutcome> {
  const sqlite = sqliteConnectionOf(trx);
  let outcome: WriteOutcome | FailedOperation | undefined;
  if (sqlite !== undefined) {
    [outcome] = new SqliteBatchWriter(sqlite).writeWithin([write]);
  } else {
    const { rows } = await sql<{ results: unknown }>`
      select poker_launch_write_batch(${JSON.stringify([write])}::jsonb) as results`.execute(trx);
    [outcome] = checkedWriteOutcomes(rows[0]?.results, 1);
  }
  if (outcome === undefined || 'failed' in outcome || !('reason' in outcome || 'playerId' in outcome)) {
    throw new Error('the launch write answered no launch outcome for a registration');
  }
  return outcome;
}
