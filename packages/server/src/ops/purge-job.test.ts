import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { LiveConfig } from '../live-config/live-config.js';
import { insertEndedSessions } from '../test-support/ended-sessions.js';
import { TestClock } from '../test-support/test-clock.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';

describe.each(DIALECTS)('the background purge on %s', (dialect) => {
  afterAll(dropFileDatabase);

  it('runs in a listening instance: a session that ended a retention ago disappears, a recent one stays', async () => {
    const database = await createTestDatabase(dialect);
    const clock = new TestClock();
    const config = loadConfig({ LOG_LEVEL: 'silent' });
    const sessions = database.openSessionStore();
    const live = await LiveConfig.load(database.db);
    const app = await buildApp({
      config,
      db: database.db,
      sessions,
      live,
      clock: clock.now,
      purge: { intervalMs: 20, firstRunDelayMs: 0 },
    });
    try {
      await database.db
        .insertInto('settings')
        .values({ name: 'ExpiredSessionRetention', value: '60' })
        .execute();
      await insertEndedSessions(database.db, [
        { id: 'old', expiresAt: '2026-11-21T11:58:59.000Z' },
        { id: 'recent', expiresAt: '2026-11-21T11:59:30.000Z' },
      ]);

      await app.listen({ host: '127.0.0.1', port: 0 });
      const metricsUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/metrics`;
      // The row's deletion commits (on SQLite in the writer thread) before the counter hears of it: wait
      // for both, or a loaded machine reads the metrics in between.
      const deadline = Date.now() + 120_000;
      let ids: string[] = [];
      let metrics = '';
      do {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ids = (await database.db.selectFrom('sessions').select('id').execute()).map((row) => row.id);
        metrics = await (await fetch(metricsUrl)).text();
      } while (
        (ids.includes('old') || !/^poker_launch_sessions_purged_total 1$/m.test(metrics)) &&
        Date.now() < deadline
      );
      expect(ids).toEqual(['recent']);
      expect(metrics).toMatch(/^poker_launch_sessions_purged_total 1$/m);
    } finally {
      await app.close();
      await sessions.close();
      await database.close();
    }
  });
});
