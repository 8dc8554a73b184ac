import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DATABASE_KINDS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DATABASE_KINDS)('poker-launch session purge on %s', (kind) => {
  const database = useTempDatabase(kind);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  /** Sessions whose expiry and revocation are that many seconds before now (null: none). */
  async function insertSessions(sessions: Record<string, { expiredAgo: number; revokedAgo?: number }>) {
    const opened = await database().open();
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
    try {
      const { db } = opened;
      const client = {
        id: 'c',
        active: 1,
        currency_mandatory: 0,
        player_id_mode: 'external',
        frame_origins: '[]',
      };
      await db
        .insertInto('clients')
        .values({ ...client, created_at: ago(0), updated_at: ago(0) })
        .execute();
      await db
        .insertInto('players')
        .values({
          id: 'p',
          client_id: 'c',
          external_id: 'u',
          active: 1,
          verified: 0,
          created_at: ago(0),
          updated_at: ago(0),
        })
        .execute();
      for (const [id, { expiredAgo, revokedAgo }] of Object.entries(sessions)) {
        await db
          .insertInto('sessions')
          .values({
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
            created_at: ago(expiredAgo + 600),
            expires_at: ago(expiredAgo),
            revoked_at: revokedAgo === undefined ? null : ago(revokedAgo),
          })
          .execute();
      }
    } finally {
      await opened.close();
    }
  }

  async function remainingSessions(): Promise<string[]> {
    const opened = await database().open();
    try {
      const rows = await opened.db.selectFrom('sessions').select('id').orderBy('id').execute();
      return rows.map((row) => row.id);
    } finally {
      await opened.close();
    }
  }

  it('deletes the sessions that ended more than ExpiredSessionRetention ago and says how many', async () => {
    expect((await cli('setting', 'set', 'ExpiredSessionRetention', '3600')).code).toBe(0);
    await insertSessions({
      active: { expiredAgo: -300 },
      'expired-2h-ago': { expiredAgo: 7200 },
      'expired-10m-ago': { expiredAgo: 600 },
      'revoked-2h-ago': { expiredAgo: -300, revokedAgo: 7200 },
      'revoked-10m-ago': { expiredAgo: -300, revokedAgo: 600 },
    });
    const purged = await cli('session', 'purge');
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toMatch(
      /^removed 2 sessions that ended before \d{4}-\d\d-\d\dT[\d:.]+Z \(ExpiredSessionRetention 3600 s\)\n$/,
    );
    expect(await remainingSessions()).toEqual(['active', 'expired-10m-ago', 'revoked-10m-ago']);
    expect((await cli('session', 'purge')).stdout).toMatch(/^removed 0 sessions that ended before/);
  });
});
