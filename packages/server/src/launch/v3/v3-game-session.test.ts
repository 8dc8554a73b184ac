import { sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { getGameSession, openGame, openGameDocument } from '../../test-support/v3-requests.js';

describe.each(DIALECTS)('v3 GET game-sessions/{id} on %s', (dialect) => {
  const h = useHarness(dialect);

  const launch = async (session?: Record<string, unknown>) => {
    const response = await openGame(h(), openGameDocument({ id: 'u-1' }, session));
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; attributes: { auth: string; sessionId: string } };
  };

  it('answers the state, target and expiry of a session it created, never the token', async () => {
    const created = await launch({ id: 's-1', tableId: 7 });
    const response = await getGameSession(h(), created.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.api+json');
    expect(response.json()).toEqual({
      data: {
        id: created.id,
        type: 'GameSession',
        attributes: { playerId: 'u-1', sessionId: 's-1', state: 'active', target: 'table', tableId: 7 },
        meta: { expiresAt: '2026-11-22T12:00:00.000Z', createdAt: '2026-11-21T12:00:00.000Z' },
      },
    });
    expect(response.body).not.toContain(created.attributes.auth);
  });

  it('answers expired once the lifetime has passed, to the second', async () => {
    await h().setSetting('AuthorizationTicketLifetime', '60');
    const created = await launch({ longLifeLoginToken: false });
    h().clock.advance(59);
    const before = (await getGameSession(h(), created.id)).json().data;
    expect(before.attributes).toMatchObject({ state: 'active', target: 'lobby' });
    h().clock.advance(1);
    const after = (await getGameSession(h(), created.id)).json().data;
    expect(after.attributes.state).toBe('expired');
    expect(after.meta.expiresAt).toBe('2026-11-21T12:01:00.000Z');
  });

  it('answers revoked for a revoked session, even after it would have expired', async () => {
    const created = await launch();
    const id = created.id.split('/').pop() ?? '';
    h().clock.advance(10);
    await h().sessions.revoke({ kind: 'revoke', id, at: h().clock.now().toISOString() });
    h().clock.advance(200_000);
    const { data } = (await getGameSession(h(), created.id)).json();
    expect(data.attributes.state).toBe('revoked');
    expect(data.meta.revokedAt).toBe('2026-11-21T12:00:10.000Z');
  });

  it('answers revoked once the player logs out through the token API with the v3 token', async () => {
    const created = await launch();
    const bearer = { authorization: `Bearer ${created.attributes.auth}` };
    const read = await h().app.inject({ method: 'GET', url: '/api/web/v2/app/session', headers: bearer });
    expect(read.statusCode, read.body).toBe(200);
    const logout = await h().app.inject({
      method: 'DELETE',
      url: '/api/web/v2/app/session',
      headers: bearer,
    });
    expect(logout.statusCode).toBe(204);
    expect((await getGameSession(h(), created.id)).json().data.attributes.state).toBe('revoked');
  });

  it('answers 404 for an unknown id, a session of another client and a v2 session', async () => {
    const created = await launch();
    const other = await h().addClient({ id: 'other', secretKey: 'other-secret' });
    const v2 = await h().createSession('u-9');
    const v2Id = `/apiweb/v3/game-sessions/${v2.json().data.id}`;
    const responses = [
      await getGameSession(h(), '/apiweb/v3/game-sessions/0123456789abcdef0123456789abcdef'),
      await getGameSession(h(), created.id, { client: other }),
      await getGameSession(h(), v2Id),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(404);
      expect(response.json().errors[0]).toMatchObject({ status: 404, code: 'not_found', title: 'Not Found' });
    }
    expect(responses[1]?.json().errors[0].detail).toBe(`No GameSession ${created.id}`);
  });

  it('needs a signature over the path id: another session id, or none, is the 400 signature error', async () => {
    const first = await launch();
    const second = await launch();
    const firstId = first.id.split('/').pop() ?? '';
    const signedForFirst = await sign({ id: firstId }, 'test_secret');
    const responses = [
      await getGameSession(h(), second.id, { sign: signedForFirst }),
      await getGameSession(h(), first.id, { sign: null }),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toMatchObject({ detail: 'Not valid request signature' });
    }
    expect(responses[0]?.json().meta.signature).toMatchObject({
      canonical: second.id.split('/').pop(),
      acceptedAlternative: `demo${second.id.split('/').pop()}`,
    });
    const kept = await getGameSession(h(), first.id, {
      sign: await sign({ client: 'demo', id: firstId }, 'test_secret'),
    });
    expect(kept.statusCode, kept.body).toBe(200);
  });

  it('lets a client without a secret read its sessions unsigned', async () => {
    const client = await h().addClient({ id: 'open', secretKey: null });
    const created = await openGame(h(), openGameDocument({ id: 'u-1' }), { client });
    const response = await getGameSession(h(), created.json().data.id, { client, sign: null });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('answers 405 for another method on a game session', async () => {
    const created = await launch();
    const response = await h().app.inject({ method: 'PUT', url: `${created.id}?client=demo` });
    expect(response.statusCode).toBe(405);
    // DELETE ends the session (session control).
    expect(response.headers.allow).toBe('GET, HEAD, DELETE');
  });
});
