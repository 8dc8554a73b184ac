import { describe, expect, it } from 'vitest';
import { useHarness } from '../test-support/harness.js';
import { refuseSessionsOf } from '../test-support/refuse-sessions.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGame, openGameDocument } from '../test-support/v3-requests.js';

const NICK_TAKEN = 'A Player with this username already exists in the system.';

describe.each(DIALECTS)('concurrent launches on %s', (dialect) => {
  const h = useHarness(dialect);

  it('answer each failure as it would alone, and let the launches around it succeed', async () => {
    const demo = await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    const internal = await h().addClient({
      id: 'inside',
      secretKey: 'other_secret',
      playerIdMode: 'internal',
    });
    expect((await h().createSession('holder', { nick: 'Taken' })).statusCode).toBe(200);
    await refuseSessionsOf({ db: h().db, dialect } as Parameters<typeof refuseSessionsOf>[0], 'refused');

    const responses = await Promise.all([
      h().createSession('u-1', { nick: 'One' }),
      h().createSession('thief-2', { nick: 'taken' }),
      openGame(h(), openGameDocument({ id: 'thief-3', nick: 'TAKEN' }), { client: demo }),
      h().createSession('no-such-player', {}, { client: internal }),
      h().createSession('u-5', { sessionId: 'refused' }),
      openGame(h(), openGameDocument({ id: 'u-6', nick: 'Six' }), { client: demo }),
      h().createSession('u-7', { nick: 'Seven', currency: 'EUR' }),
    ]);

    const answers = responses.map((response) => {
      const body = response.json();
      const error = body.errors?.[0];
      return error
        ? [response.statusCode, error.code, error.detail, error.source?.pointer]
        : [response.statusCode];
    });
    expect(answers).toEqual([
      [200],
      [500, 'username_exists', NICK_TAKEN, '/data/attributes/nick'],
      [422, 'username_exists', NICK_TAKEN, '/data/attributes/player/nick'],
      [404, 'player_not_found', 'Player not found', '/data/attributes/userId'],
      [500, 'internal_error', 'Internal error', undefined],
      [201],
      [200],
    ]);
    const stored = await h().db.selectFrom('players').select('external_id').orderBy('external_id').execute();
    // A launch is all or nothing: the refused one left no player behind either.
    expect(stored.map((player) => player.external_id)).toEqual(['holder', 'u-1', 'u-6', 'u-7']);
    const sessions = await h().db.selectFrom('sessions').select('player_id').execute();
    expect(sessions).toHaveLength(4);
  });
});
