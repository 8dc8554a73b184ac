import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { TestClock } from '../test-support/test-clock.js';
import { createTestDatabase, DIALECTS, dropFileDatabase } from '../test-support/test-database.js';

describe.each(DIALECTS)('the background purge on %s', (dialect) => {
  afterAll(dropFileDatabase);

  it('runs in a listening instance: a session that ended a retention ago disappears, a recent one stays', async () => {
    const database = await createTestDatabase(dialect);
    const clock = new TestClock();
    const config = loadConfig({ LOG_LEVEL: 'silent' });
    const app = await buildApp({
      config,
      db: database.db,
      clock: clock.now,
      purge: { intervalMs: 20, firstRunDelayMs: 0 },
    });
    try {
      const now = clock.now().toISOString();
      const { db } = database;
      await db.insertInto('settings').values({ name: 'ExpiredSessionRetention', value: '60' }).execute();
      await db
        .insertInto('clients')
        .values({
          id: 'c',
          active: 1,
          currency_mandatory: 0,
          player_id_mode: 'external',
          frame_origins: '[]',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('players')
        .values({
          id: 'p',
          client_id: 'c',
          external_id: 'u',
          active: 1,
          verified: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const session = (id: string, expiresAt: string) => ({
        id,
        token_hash: `hash-${id}`,
        client_id: 'c',
        player_id: 'p',
        external_session_id: id,
        api_version: 'v2',
        game_code: 'poker',
        auth_type: 'external',
        lang: 'en',
        long_life: 0,
        created_at: '2026-11-21T11:00:00.000Z',
        expires_at: expiresAt,
      });
      await db
        .insertInto('sessions')
        .values([session('old', '2026-11-21T11:58:59.000Z'), session('recent', '2026-11-21T11:59:30.000Z')])
        .execute();

      await app.listen({ host: '127.0.0.1', port: 0 });
      const deadline = Date.now() + 10_000;
      let ids: string[] = [];
      do {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ids = (await db.selectFrom('sessions').select('id').execute()).map((row) => row.id);
      } while (ids.includes('old') && Date.now() < deadline);
      expect(ids).toEqual(['recent']);
      const metrics = await (
        await fetch(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/metrics`)
      ).text();
      expect(metrics).toContain('poker_launch_sessions_purged_total 1');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
