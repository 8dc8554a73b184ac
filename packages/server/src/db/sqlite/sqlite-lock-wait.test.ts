import { afterEach, describe, expect, it } from 'vitest';
import { sql } from '#kysely';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { Database } from '../database.js';
import type { SessionStore } from '../session-store.js';
import { BUSY_TIMEOUT_MS, openSqliteConnection } from './sqlite-connection.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long `write` took to settle, and its error. */
async function timed(write: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  const error = await write.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { ms: Date.now() - started, error };
}

describe('the SQLite session writer while another process holds the database', () => {
  let database: Database | undefined;
  let sessions: SessionStore | undefined;
  afterEach(async () => {
    await sessions?.close();
    await database?.close();
  });

  it('fails a write queued behind one that waits for the lock within the busy timeout of its own start, not a timeout later', async () => {
    database = await createTestDatabase('sqlite');
    sessions = database.openSessionStore();
    const { sql: statement, parameters } = database.db
      .deleteFrom('instances')
      .where('id', '=', 'none')
      .compile();
    // The writer thread started, so that its start is not counted in the first write's wait.
    await sessions.execute({ sql: statement, parameters });
    const { rows } = await sql<{ file: string }>`pragma database_list`.execute(database.db);
    const other = openSqliteConnection(rows[0]?.file ?? '');
    other.exec('BEGIN EXCLUSIVE');
    try {
      const first = timed(sessions.execute({ sql: statement, parameters }));
      // Sent while the first waits for the lock: before, it waited for the first, then a timeout of its own.
      await sleep(1000);
      const second = timed(sessions.execute({ sql: statement, parameters }));
      const [a, b] = await Promise.all([first, second]);
      for (const { error } of [a, b]) expect((error as { code?: unknown }).code).toBe('SQLITE_BUSY');
      expect(a.ms).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS - 100);
      // Before: about BUSY_TIMEOUT_MS - 1000 + BUSY_TIMEOUT_MS (9 s); now the rest of its own 5 s.
      expect(b.ms).toBeLessThan(BUSY_TIMEOUT_MS + 1500);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // The lock gone, the writer writes again.
    await sessions.execute({ sql: statement, parameters });
  }, 30_000);
});
