import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

describe.each(DIALECTS)('poker-launch session and player control on %s', (kind) => {
  const database = useTempDatabase(kind);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
  const sessions = async () => {
    const stored = await database().open();
    try {
      return await stored.db.selectFrom('sessions').select(['id', 'revoke_reason']).orderBy('id').execute();
    } finally {
      await stored.close();
    }
  };
  let launched = 0;
  /** A live session of the player (registered with player add on its first), written as a launch would. */
  const launch = async (userId: string) => {
    const stored = await database().open();
    try {
      const player = await stored.db
        .selectFrom('players')
        .select('id')
        .where('external_id', '=', userId)
        .executeTakeFirst();
      let playerId = player?.id;
      if (playerId === undefined) {
        const added = await cli('player', 'add', userId, '--client', 'casino-1');
        // Checked here: a failed add would leave an empty id, and a later step would fail without saying why.
        expect(added, added.stderr).toMatchObject({ code: 0 });
        playerId = added.stdout.trim();
      }
      const id = String(++launched).padStart(32, '0');
      const now = new Date();
      await stored.db
        .insertInto('sessions')
        .values({
          id,
          token_hash: id,
          client_id: 'casino-1',
          player_id: playerId,
          external_session_id: `ext-${id}`,
          api_version: 'v2',
          game_code: 'poker',
          table_id: null,
          game_id: null,
          auth_type: 'external',
          lang: 'en',
          currency: null,
          launch_options: null,
          long_life: 0,
          user_ip: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + 600_000).toISOString(),
          revoked_at: null,
          opened_at: null,
          revoke_reason: null,
        })
        .execute();
      return id;
    } finally {
      await stored.close();
    }
  };

  it('ends one session, then all of a player, as the operator', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    const first = await launch('u-1');
    const second = await launch('u-1');
    const third = await launch('u-1');
    const revoked = await cli('session', 'revoke', first);
    expect(revoked).toMatchObject({ code: 0, stdout: `session ${first} ended\n` });
    expect((await cli('session', 'revoke', first)).stdout).toBe(`session ${first} had ended already\n`);
    const all = await cli('player', 'revoke-sessions', 'u-1', '--client', 'casino-1');
    expect(all).toMatchObject({ code: 0, stdout: '2 live sessions of player u-1 ended\n' });
    expect(await sessions()).toEqual(
      [first, second, third].sort().map((id) => ({ id, revoke_reason: 'operator' })),
    );
  });

  it('blocks and unblocks a player, with the API rules for until and reason', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    await launch('u-1');
    const blockU1 = (until: string, reason: string) =>
      cli('player', 'block', 'u-1', '--client', 'casino-1', '--until', until, '--reason', reason);
    const blocked = await blockU1('2099-01-01T00:00:00Z', 'self-exclusion');
    // Its stderr says why, if it fails.
    expect(blocked, blocked.stderr).toMatchObject({
      code: 0,
      stdout: 'player u-1 blocked until 2099-01-01T00:00:00.000Z; 1 live session ended\n',
    });
    expect((await sessions()).map((row) => row.revoke_reason)).toEqual(['block']);
    const bad = await blockU1('2001-01-01T00:00:00Z', 'x'.repeat(201));
    expect(bad).toMatchObject({
      code: 1,
      stderr:
        // The flags the operator gave, as every other refusal of a flag's value names them.
        'poker-launch player block: --reason must be at most 200 characters long; --until must be in the future\n',
    });
    // A day the month does not have was rolled over: 30 February blocked until 2 March.
    expect(await blockU1('2099-02-30T00:00:00Z', 'typo')).toMatchObject({
      code: 1,
      stderr:
        'poker-launch player block: --until must be an ISO 8601 date and time with a time zone, e.g. 2099-12-31T00:00:00Z\n',
    });
    expect((await cli('player', 'unblock', 'u-1', '--client', 'casino-1')).stdout).toBe(
      'player u-1 unblocked\n',
    );
    expect((await cli('player', 'unblock', 'u-1', '--client', 'casino-1')).stdout).toBe(
      'player u-1 was not blocked\n',
    );
    expect((await cli('player', 'block', 'u-1', '--client', 'casino-1')).stdout).toBe(
      'player u-1 blocked until unblocked; 0 live sessions ended\n',
    );
  });

  it('refuses an unknown session, client or player, and a call without --client', async () => {
    await cli('client', 'add', 'casino-1', '--no-secret');
    expect((await cli('session', 'revoke', '0'.repeat(32))).stderr).toContain(
      `no session "${'0'.repeat(32)}"`,
    );
    expect((await cli('player', 'block', 'u-1', '--client', 'nobody')).stderr).toContain(
      'no client "nobody"',
    );
    expect((await cli('player', 'unblock', 'u-9', '--client', 'casino-1')).stderr).toContain(
      'client "casino-1" has no player "u-9"',
    );
    expect((await cli('player', 'revoke-sessions', 'u-1')).code).toBe(2);
  });
});
