import { describe, expect, it } from 'vitest';
import { blockDocument, blockRequest } from '../test-support/control-requests.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { openGame, openGameDocument } from '../test-support/v3-requests.js';
import { TOKEN_API_URL } from '../token/token.routes.js';

const RESTORE_URL = 'https://casino.example/restore';

describe.each(DIALECTS)('a blocked player on %s', (dialect) => {
  const h = useHarness(dialect);

  /** A v2 launch as the integrator's restore page makes it: long-life, with its restoreSessionUrl. */
  const v2Launch = (userId: string, longLife: boolean) =>
    h().createSession(userId, {
      longLifeLoginToken: String(longLife),
      launchOptions: JSON.stringify({ restoreSessionUrl: RESTORE_URL }),
    });
  const v3Launch = (playerId: string, longLife: boolean) =>
    openGame(
      h(),
      openGameDocument(
        { id: playerId },
        { longLifeLoginToken: longLife, launchOptions: { restoreSessionUrl: RESTORE_URL } },
      ),
    );
  const token = (auth: string) =>
    h().app.inject({ method: 'GET', url: TOKEN_API_URL, headers: { authorization: `Bearer ${auth}` } });
  const sessionCount = async () => (await h().db.selectFrom('sessions').select('id').execute()).length;
  const refusal = (response: { statusCode: number; json(): unknown }) => ({
    status: response.statusCode,
    errors: (response.json() as { errors: unknown[] }).errors,
  });
  const blocked = (pointer: string) => ({
    status: 403,
    errors: [
      {
        status: 403,
        code: 'player_blocked',
        title: 'Forbidden',
        detail: 'The player is blocked: no session can be opened for it until the block ends',
        source: { pointer },
      },
    ],
  });

  it('is refused every launch (v2 and v3, short and long-life, the restore page’s) with 403 player_blocked, and its long-life token ends with the block', async () => {
    const longLived = await v2Launch('u-1', true);
    expect(longLived.statusCode, longLived.body).toBe(200);
    const auth = longLived.json().data.attributes.auth as string;
    const v3 = await v3Launch('u-1', true);
    expect(v3.statusCode, v3.body).toBe(201);
    const block = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ until: '2026-11-21T13:00:00Z', reason: 'self-exclusion' }),
    });
    expect(block.json().meta).toEqual({ revokedSessions: 2 });

    // The long-life tokens issued before the block open nothing, and name no restore page: the
    // player is sent nowhere a new session could come from.
    for (const issued of [auth, v3.json().data.attributes.auth as string]) {
      const answer = await token(issued);
      expect(answer.statusCode).toBe(401);
      expect(answer.json().errors[0].code).toBe('token_revoked');
      expect(answer.json().meta.restoreSessionUrl).toBeUndefined();
    }
    const stored = await sessionCount();
    for (const longLife of [false, true]) {
      expect(refusal(await v2Launch('u-1', longLife))).toEqual(blocked('/data/attributes/userId'));
      expect(refusal(await v3Launch('u-1', longLife))).toEqual(blocked('/data/attributes/player/id'));
    }
    // Refused before anything was written: no session, no profile change.
    expect(await sessionCount()).toBe(stored);
    // Another player of the client is not concerned.
    expect((await v2Launch('u-2', true)).statusCode).toBe(200);

    // The block ends by its until: the restore page's launch works again.
    h().clock.advance(3600);
    expect((await v2Launch('u-1', true)).statusCode).toBe(200);
    expect((await v3Launch('u-1', false)).statusCode).toBe(201);
  });

  it('refuses a block until lifted, and launches again once it is lifted', async () => {
    expect((await v2Launch('u-1', false)).statusCode).toBe(200);
    await blockRequest(h(), 'PUT', 'u-1', { body: blockDocument() });
    h().clock.advance(365 * 24 * 3600);
    expect(refusal(await v2Launch('u-1', false))).toEqual(blocked('/data/attributes/userId'));
    expect((await blockRequest(h(), 'DELETE', 'u-1')).statusCode).toBe(204);
    expect((await v2Launch('u-1', false)).statusCode).toBe(200);
  });
});
