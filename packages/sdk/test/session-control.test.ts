import { createLaunchClient, LaunchApiError, unixSeconds } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import { apiKeyFor } from '../../server/src/test-support/v3-requests.js';
import { ROLE_ADMIN } from '../../server/src/users/api-user.js';
import { DIALECTS, useLiveServer } from './support/live-server.js';
import { recordingFetch } from './support/recording-fetch.js';

describe.each(DIALECTS)('session control through the SDK on %s', (dialect) => {
  const server = useLiveServer(dialect);
  const clientFor = async () => {
    await server().addClient({ id: 'demo', secretKey: 'sdk_secret' });
    return createLaunchClient({ baseUrl: server().baseUrl, clientId: 'demo', secretKey: 'sdk_secret' });
  };
  const tokenState = async (auth: string) => {
    const response = await fetch(`${server().baseUrl}/api/web/v2/app/session`, {
      headers: { authorization: `Bearer ${auth}` },
    });
    if (response.status === 200) return 'active';
    return ((await response.json()) as { errors: { code: string }[] }).errors[0]?.code;
  };

  it('ends a v2 session by its id and a v3 one by its IRI', async () => {
    const client = await clientFor();
    const v2 = await client.createSession('u-1');
    const v3 = await client.openGame({ player: { id: 'u-2' } });
    await client.revokeSession(v2.id);
    await client.revokeSession(v3.id);
    expect([await tokenState(v2.auth), await tokenState(v3.auth)]).toEqual([
      'token_revoked',
      'token_revoked',
    ]);
    await expect(client.revokeSession('nope')).rejects.toThrow(TypeError);
    // The results also carry sessionId, v2's own field (the caller's or a generated UUID): not the id.
    await expect(client.revokeSession(v2.sessionId)).rejects.toThrow(
      "revokeSession: give the session's id (the `id` createSession or openGame answered: a v2 data.id or a v3 GameSession IRI), not its `sessionId`",
    );
  });

  it("ends a player's sessions, blocks it until a date with a reason, and lifts the block", async () => {
    const client = await clientFor();
    const sessions = [await client.createSession('u-1'), await client.createSession('u-1')];
    expect(await client.revokePlayerSessions('u-1')).toEqual({ revokedSessions: 2 });
    const live = await client.createSession('u-1');
    const until = new Date('2026-12-01T00:00:00Z');
    const block = await client.blockPlayer('u-1', { until, reason: 'self-exclusion' });
    expect(block).toMatchObject({
      playerId: 'u-1',
      blocked: true,
      until: '2026-12-01T00:00:00.000Z',
      reason: 'self-exclusion',
      revokedSessions: 1,
    });
    expect(block.warnings).toEqual([]);
    expect(await tokenState(live.auth)).toBe('token_revoked');
    await client.unblockPlayer('u-1');
    const stored = await server().db.selectFrom('players').select('blocked_at').executeTakeFirst();
    expect(stored).toEqual({ blocked_at: null });
    expect(sessions).toHaveLength(2);
  });

  it('throws LaunchApiError with the code, for an unknown player or a refused document', async () => {
    const client = await clientFor();
    const refused = await client.blockPlayer('nobody').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LaunchApiError);
    expect(refused).toMatchObject({ status: 404, code: 'player_not_found', attempts: 1 });
    await client.createSession('u-1');
    const past = await client
      .blockPlayer('u-1', { until: '2001-01-01T00:00:00Z' })
      .catch((error: unknown) => error);
    expect(past).toMatchObject({ status: 422, code: 'invalid_field', pointer: '/data/attributes/until' });
  });

  it('reads a GameSession back: its state, target and times, lobby or table, active, revoked, expired', async () => {
    const recorder = recordingFetch();
    await server().addClient({ id: 'demo', secretKey: 'sdk_secret' });
    const client = createLaunchClient({
      baseUrl: server().baseUrl,
      clientId: 'demo',
      secretKey: 'sdk_secret',
      fetch: recorder.fetch,
    });
    const lobby = await client.openGame({ player: { id: 'u-1' } });
    const table = await client.openGame({ player: { id: 'u-1' }, session: { tableId: 7 } });

    const read = await client.getGameSession(lobby.id);
    expect(read).toEqual({
      id: lobby.id,
      playerId: 'u-1',
      sessionId: lobby.sessionId,
      state: 'active',
      target: 'lobby',
      tableId: undefined,
      expiresAt: lobby.expiresAt,
      createdAt: server().clock.now().toISOString(),
      revokedAt: undefined,
      apiUser: undefined,
      document: expect.objectContaining({ data: expect.objectContaining({ id: lobby.id }) }),
    });
    expect(JSON.stringify(read)).not.toContain(lobby.auth);
    // The IRI's last segment names the same session.
    const atTable = await client.getGameSession(table.id.split('/').pop() ?? '');
    expect(atTable).toMatchObject({ id: table.id, state: 'active', target: 'table', tableId: 7 });
    const get = recorder.calls.at(-1);
    expect(get?.url).toBe(`${server().baseUrl}${table.id}?client=demo`);
    expect(get?.body).toBe('');

    await client.revokeSession(lobby.id);
    expect(await client.getGameSession(lobby.id)).toMatchObject({
      state: 'revoked',
      revokedAt: server().clock.now().toISOString(),
    });
    server().clock.advance(7 * 86_400);
    expect(await client.getGameSession(table.id)).toMatchObject({ state: 'expired', revokedAt: undefined });
  });

  it("answers not_found for a v2 session, another client's or none, and refuses what is no session id before sending", async () => {
    const client = await clientFor();
    await server().addClient({ id: 'other', secretKey: 'other_secret' });
    const other = createLaunchClient({
      baseUrl: server().baseUrl,
      clientId: 'other',
      secretKey: 'other_secret',
    });
    const v2 = await client.createSession('u-1');
    const theirs = await other.openGame({ player: { id: 'u-9' } });
    for (const id of [v2.id, theirs.id, '0'.repeat(32)]) {
      const refused = await client.getGameSession(id).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LaunchApiError);
      expect(refused).toMatchObject({ status: 404, code: 'not_found', attempts: 1 });
    }
    await expect(client.getGameSession('nope')).rejects.toThrow(
      'getGameSession: give the IRI (data.id) of a v3 GameSession, or its last segment',
    );
  });

  it("reads a player's block: none, set until a date, ended by its date, lifted; an unknown player is player_not_found", async () => {
    const client = await clientFor();
    const refused = await client.getPlayerBlock('nobody').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LaunchApiError);
    expect(refused).toMatchObject({ status: 404, code: 'player_not_found', attempts: 1 });
    await client.createSession('u-1');
    const none = { playerId: 'u-1', blocked: false, since: null, until: null, reason: null };
    expect(await client.getPlayerBlock('u-1')).toMatchObject(none);

    await client.blockPlayer('u-1', { until: '2026-12-01T00:00:00Z', reason: 'self-exclusion' });
    const block = await client.getPlayerBlock('u-1');
    expect(block).toEqual({
      playerId: 'u-1',
      blocked: true,
      since: server().clock.now().toISOString(),
      until: '2026-12-01T00:00:00.000Z',
      reason: 'self-exclusion',
      document: { data: { type: 'PlayerBlock', id: 'u-1', attributes: expect.any(Object) } },
    });
    expect(block).not.toHaveProperty('revokedSessions');
    server().clock.advance(30 * 86_400);
    expect(await client.getPlayerBlock('u-1')).toMatchObject(none);

    await client.blockPlayer('u-1');
    expect(await client.getPlayerBlock('u-1')).toMatchObject({ blocked: true, until: null, reason: null });
    await client.unblockPlayer('u-1');
    expect(await client.getPlayerBlock('u-1')).toMatchObject(none);
  });

  it('reads signed with hmac, and with an API key (an admin sees who opened the session)', async () => {
    const protection = { replayProtection: 'off', replayWindowSeconds: 300, allowedAddresses: [] } as const;
    await server().addClient({
      id: 'demo',
      secretKey: 'sdk_secret',
      protection: { ...protection, signature: 'hmac' },
    });
    // The hmac's time is the real one; the service's test clock is brought to it.
    server().clock.advance(unixSeconds() - Math.floor(server().clock.now().getTime() / 1000));
    const hmac = createLaunchClient({
      baseUrl: server().baseUrl,
      clientId: 'demo',
      secretKey: 'sdk_secret',
      signature: { scheme: 'hmac' },
    });
    const game = await hmac.openGame({ player: { id: 'u-1' } });
    expect(await hmac.getGameSession(game.id)).toMatchObject({ state: 'active', apiUser: undefined });
    expect(await hmac.getPlayerBlock('u-1')).toMatchObject({ blocked: false });

    const { key, user } = await apiKeyFor(server(), { role: ROLE_ADMIN, clients: ['demo'] });
    const admin = createLaunchClient({ baseUrl: server().baseUrl, clientId: 'demo', apiKey: key });
    const opened = await admin.openGame({ player: { id: 'u-2' } });
    expect(await admin.getGameSession(opened.id)).toMatchObject({ state: 'active', apiUser: user.name });
    expect(await admin.getGameSession(game.id)).toMatchObject({ apiUser: null });
    expect(await admin.getPlayerBlock('u-2')).toMatchObject({ playerId: 'u-2', blocked: false });
  });
});

describe('session control arguments', () => {
  it('refuses a playerId of . or .., which fetch would resolve out of the path to another route, before sending anything', async () => {
    const sent: string[] = [];
    const client = createLaunchClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'demo',
      fetch: async (url) => {
        sent.push(url);
        throw new Error('nothing should be sent');
      },
    });
    for (const playerId of ['.', '..']) {
      const message = `playerId "${playerId}" cannot travel in a URL path`;
      await expect(client.revokePlayerSessions(playerId)).rejects.toThrow(message);
      await expect(client.blockPlayer(playerId)).rejects.toThrow(message);
      await expect(client.unblockPlayer(playerId)).rejects.toThrow(message);
      await expect(client.getPlayerBlock(playerId)).rejects.toThrow(message);
    }
    await expect(client.blockPlayer('')).rejects.toThrow('playerId must be a non-empty string');
    expect(sent).toEqual([]);
  });
});

describe('blockPlayer', () => {
  it("carries the answer's meta.warnings, what the service did not apply", async () => {
    const warnings = ['Unknown attributes were ignored: /data/attributes/untill (did you mean until?)'];
    const answer = {
      data: {
        type: 'PlayerBlock',
        id: 'u-1',
        attributes: { blocked: true, since: '2026-11-21T12:00:00.000Z', until: null, reason: null },
      },
      meta: { revokedSessions: 0, warnings },
    };
    const client = createLaunchClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'demo',
      fetch: async () => new Response(JSON.stringify(answer), { status: 200 }),
    });
    expect(await client.blockPlayer('u-1')).toMatchObject({ blocked: true, revokedSessions: 0, warnings });
  });
});

describe('the reads, against answers that are not the documents they expect', () => {
  const answering = (answer: unknown) =>
    createLaunchClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'demo',
      fetch: async (_url, init) => {
        expect(init).toMatchObject({ method: 'GET' });
        expect(init).not.toHaveProperty('body');
        return new Response(JSON.stringify(answer), { status: 200 });
      },
    });
  const id = 'a'.repeat(32);
  const session = {
    data: {
      id: `/apiweb/v3/game-sessions/${id}`,
      type: 'GameSession',
      attributes: { playerId: 'u-1', sessionId: 's-1', state: 'active', target: 'table', tableId: 7 },
      meta: { expiresAt: '2026-11-21T12:10:00.000Z', createdAt: '2026-11-21T12:00:00.000Z' },
    },
  };

  it('read one as it is, and throw unexpected_response for what the types could not describe', async () => {
    expect(await answering(session).getGameSession(id)).toMatchObject({ target: 'table', tableId: 7 });
    const broken = [
      { ...session.data, attributes: { ...session.data.attributes, state: 'paused' } },
      { ...session.data, attributes: { ...session.data.attributes, tableId: undefined } },
      { ...session.data, attributes: { ...session.data.attributes, target: 'casino' } },
      { ...session.data, meta: { createdAt: '2026-11-21T12:00:00.000Z' } },
      { ...session.data, meta: { ...session.data.meta, apiUser: 7 } },
    ];
    for (const data of broken) {
      await expect(answering({ data }).getGameSession(id)).rejects.toMatchObject({
        status: 200,
        code: 'unexpected_response',
        detail: 'HTTP 200 without a GameSession document',
      });
    }
    const block = {
      type: 'PlayerBlock',
      id: 'u-1',
      attributes: { blocked: true, since: 7, until: null, reason: null },
    };
    await expect(answering({ data: block }).getPlayerBlock('u-1')).rejects.toMatchObject({
      code: 'unexpected_response',
      detail: 'HTTP 200 without a PlayerBlock document',
    });
  });
});
