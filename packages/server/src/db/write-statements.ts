import type { CompiledQuery } from '#kysely';
import type { Db } from './schema.js';
import type { SessionStore } from './session-store.js';
import { withinTransaction } from './within-transaction.js';

/**
 * Runs statements in one transaction and answers the rows each changed. The service runs them where
 * its session store writes (on SQLite, the writer thread: no fsync on the event loop); an operator
 * command, on its own connection.
 */
export type WriteStatements = (statements: readonly CompiledQuery[]) => Promise<number[]>;

export function storeStatements(sessions: Pick<SessionStore, 'executeAll'>): WriteStatements {
  return (statements) => sessions.executeAll(statements);
}

export function transactionStatements(db: Db): WriteStatements {
  // Within the transaction `db` is, if it is one: an audited admin change and its record stay one.
  return (statements) =>
    withinTransaction(db, async (trx) => {
      const changes: number[] = [];
      for (const statement of statements) {
        const result = await trx.executeQuery(statement);
        changes.push(Number(result.numAffectedRows ?? 0));
      }
      return changes;
    });
}
