import { describe, expect, it } from 'vitest';
import { insertEndedSessions } from '../../../server/src/test-support/ended-sessions.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch session purge on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });

  /** Sessions that expired (and were revoked) that many seconds ago; negative: in the future. */
  async function insertSessions(sessions: Record<string, { expiredAgo: number; revokedAgo?: number }>) {
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
    const opened = await database().open();
    try {
      await insertEndedSessions(
        opened.db,
        Object.entries(sessions).map(([id, { expiredAgo, revokedAgo }]) => ({
          id,
          expiresAt: ago(expiredAgo),
          revokedAt: revokedAgo === undefined ? null : ago(revokedAgo),
        })),
      );
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
