import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { insertEndedSessions } from '../test-support/ended-sessions.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';
import { purgeExpiredSessions } from './session-purge.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const at = (secondsFromNow: number) => new Date(NOW.getTime() + secondsFromNow * 1000).toISOString();

describe.each(DIALECTS)('purgeExpiredSessions on %s', (dialect) => {
  let database: Database;
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(() => database.close());
  afterAll(dropFileDatabase);

  const remaining = async () =>
    (await database.db.selectFrom('sessions').select('id').orderBy('id').execute()).map((row) => row.id);

  it('deletes the sessions that expired or were revoked before the cutoff, and no other', async () => {
    await insertEndedSessions(database.db, [
      { id: 'active', expiresAt: at(300) },
      { id: 'expired-long-ago', expiresAt: at(-7200) },
      { id: 'expired-just-now', expiresAt: at(-10) },
      { id: 'revoked-long-ago', expiresAt: at(300), revokedAt: at(-7200) },
      { id: 'revoked-just-now', expiresAt: at(300), revokedAt: at(-10) },
      { id: 'expired-at-the-cutoff', expiresAt: at(-3600) },
    ]);
    const removed = await purgeExpiredSessions(database.db, { before: new Date(at(-3600)), limit: 100 });
    expect(removed).toBe(2);
    expect(await remaining()).toEqual([
      'active',
      'expired-at-the-cutoff',
      'expired-just-now',
      'revoked-just-now',
    ]);
  });

  it('deletes at most the limit per call, and nothing once nothing is left', async () => {
    await insertEndedSessions(
      database.db,
      Array.from({ length: 7 }, (_, index) => ({ id: `old-${index}`, expiresAt: at(-7200) })),
    );
    const before = new Date(at(-3600));
    expect(await purgeExpiredSessions(database.db, { before, limit: 3 })).toBe(3);
    expect(await purgeExpiredSessions(database.db, { before, limit: 3 })).toBe(3);
    expect(await purgeExpiredSessions(database.db, { before, limit: 3 })).toBe(1);
    expect(await purgeExpiredSessions(database.db, { before, limit: 3 })).toBe(0);
    expect(await remaining()).toEqual([]);
  });
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.runIf(postgresUrl)('purgeExpiredSessions on PostgreSQL, several at once', () => {
  let database: Database;
  beforeEach(async () => {
    database = await createTestDatabase('postgres');
  });
  afterEach(() => database.close());
  afterAll(dropFileDatabase);

  it('deletes every session once when instances purge together, and skips rows another transaction holds', async () => {
    const { db } = database;
    const ids = Array.from({ length: 400 }, (_, index) => `s-${String(index).padStart(3, '0')}`);
    await insertEndedSessions(
      db,
      ids.map((id) => ({ id, expiresAt: at(-7200) })),
    );
    // Another transaction (a launch, an admin, another instance) holds one row: the purge must pass it by, not wait.
    const before = new Date(at(-3600));
    const purge = async () => {
      let total = 0;
      for (;;) {
        const removed = await purgeExpiredSessions(db, { before, limit: 25 });
        total += removed;
        if (removed < 25) return total;
      }
    };
    await db.transaction().execute(async (holder) => {
      await holder.selectFrom('sessions').select('id').where('id', '=', 's-000').forUpdate().execute();
      const totals = await Promise.all([purge(), purge(), purge(), purge()]);
      expect(totals.reduce((sum, total) => sum + total, 0)).toBe(399);
      expect(await db.selectFrom('sessions').select('id').execute()).toEqual([{ id: 's-000' }]);
    });
    expect(await purgeExpiredSessions(db, { before, limit: 25 })).toBe(1);
  });
});
