import { sha256Hex } from '@poker-launch/sdk/internal';
import { describe, expect, it } from 'vitest';
import { PUBLIC_URL, useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

const HEX_32 = /^[0-9a-f]{32}$/;

describe.each(DIALECTS)('v2 create session on %s', (dialect) => {
  const h = useHarness(dialect);

  it('answers worked vector 1 with the spec Session resource', async () => {
    await h().addClient({ id: 'demo', secretKey: 'test_secret' });
    const response = await h().createSession(
      '12345',
      { userId: '12345', nick: 'Player1', lang: 'en', authType: 'external' },
      { sign: '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a' },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.api+json');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-request-id']).toBeTruthy();
    const { data } = response.json();
    expect(Object.keys(data).sort()).toEqual(['attributes', 'id', 'meta', 'type']);
    expect(data.type).toBe('session');
    expect(Object.keys(data.attributes).sort()).toEqual(['auth', 'redirect-url', 'session-id', 'user-id']);
    expect(data.attributes['user-id']).toBe('12345');
    expect(data.attributes.auth).toMatch(HEX_32);
    expect(data.id).toMatch(HEX_32);
    expect(data.id).not.toBe(data.attributes.auth);
    expect(data.attributes['session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.attributes['redirect-url']).toBe(
      `${PUBLIC_URL}/play/poker?auth=${data.attributes.auth}&lang=en`,
    );
    expect(data.meta.expiresAt).toBe('2026-11-21T12:10:00.000Z');
  });

  it('stores only the SHA-256 of the auth token, committed before it answers', async () => {
    const response = await h().createSession('u-1', { nick: 'Hashy' });
    const { auth } = response.json().data.attributes;
    const rows = await h().db.selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(await sha256Hex(auth));
    expect(JSON.stringify(rows)).not.toContain(auth);
  });

  it('creates a new session with a new token on every call and echoes the integrator sessionId', async () => {
    const first = (await h().createSession('u-1', { sessionId: 'ext-9' })).json().data;
    const second = (await h().createSession('u-1')).json().data;
    expect(first.attributes['session-id']).toBe('ext-9');
    expect(second.attributes.auth).not.toBe(first.attributes.auth);
    expect(second.id).not.toBe(first.id);
    expect(await h().db.selectFrom('players').selectAll().execute()).toHaveLength(1);
  });

  it('accepts a flat JSON body and signs it like the form (worked vector 3)', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const response = await h().createSession(
      'p-77',
      { gameCode: 'poker', tableId: '42', currency: 'EUR', longLifeLoginToken: 'true', sessionId: 'ext-9' },
      { sign: '679ab769416b7419240cff810beaacdf9c0b2dcada9516e4c460fe9627da2f2f', format: 'json' },
    );
    expect(response.statusCode).toBe(200);
    const { data, meta } = response.json();
    expect(data.meta.expiresAt).toBe('2026-11-22T12:00:00.000Z');
    expect(new URL(data.attributes['redirect-url']).searchParams.get('tableId')).toBe('42');
    expect(meta.warnings).toEqual(['Currency EUR is not active; it was not applied']);
  });

  it('reads PHP-style nested launchOptions from a form and puts them in the URL (worked vector 2)', async () => {
    const response = await h().createSession(
      '12345',
      { lang: 'en', launchOptions: { restoreSessionUrl: 'https://casino.example/restore' } },
      { sign: 'ba1a806bf20217b59f4b00e7abe13c3558746080ae945c905cbb70cf431816f9' },
    );
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json().data.attributes['redirect-url']);
    expect(url.searchParams.get('launchOptions')).toBe(
      '{"restoreSessionUrl":"https://casino.example/restore"}',
    );
  });

  it('uses the lifetimes from the settings, long or short', async () => {
    await h().setSetting('AuthorizationTicketLifetime', '30');
    await h().setSetting('LongAuthorizationTicketLifetime', '3600');
    const short = (await h().createSession('u-1', { longLifeLoginToken: 'false' })).json().data;
    const long = (await h().createSession('u-1', { longLifeLoginToken: 'true' })).json().data;
    expect(short.meta.expiresAt).toBe('2026-11-21T12:00:30.000Z');
    expect(long.meta.expiresAt).toBe('2026-11-21T13:00:00.000Z');
  });

  it('registers the player with the default active and verified settings, and a new nick renames', async () => {
    await h().setSetting('PlayerDefaultVerified', 'true');
    await h().createSession('u-1', { nick: 'Before' });
    await h().createSession('u-1', { nick: 'After' });
    const players = await h().db.selectFrom('players').selectAll().execute();
    expect(players).toHaveLength(1);
    expect(players[0]).toMatchObject({ external_id: 'u-1', nick: 'After', active: 1, verified: 1 });
  });

  it('lets a client without a secret call unsigned', async () => {
    await h().addClient({ id: 'open', secretKey: null });
    const response = await h().createSession('u-1', {}, { clientId: 'open', sign: null });
    expect(response.statusCode).toBe(200);
  });

  it('answers the service player id in internal player-id mode', async () => {
    const client = await h().addClient({ id: 'internal', playerIdMode: 'internal' });
    const { insertPlayerIfAbsent } = await import('../../players/player.repository.js');
    const player = await insertPlayerIfAbsent(
      h().db,
      { clientId: client.id, externalId: 'their-42', profile: {}, active: true, verified: false },
      h().clock.now(),
    );
    const response = await h().createSession(player.id, {}, { client });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.attributes['user-id']).toBe(player.id);
  });
});

describe.each(DIALECTS)('v2 launch URLs on %s', (dialect) => {
  const h = useHarness(dialect);
  let players = 0;
  const launch = async (params: Record<string, unknown>) => {
    // A new player each time: a currency stored on one player must not leak into the next case.
    const response = await h().createSession(`u-${++players}`, params);
    expect(response.statusCode, response.body).toBe(200);
    const url = new URL(response.json().data.attributes['redirect-url']);
    return { path: url.origin + url.pathname, query: Object.fromEntries(url.searchParams) };
  };

  it('opens each of the six targets on the built-in pages by default', async () => {
    await h().activateCurrencies('EUR');
    const cases: [Record<string, unknown>, string, Record<string, string>][] = [
      [{}, '/play/poker', {}],
      [{ gameCode: 'poker', tableID: '7' }, '/play/poker/table', { tableId: '7' }],
      [{ gameCode: 'casinoLobby' }, '/play/casino', {}],
      [{ gameCode: 'casinolobby' }, '/play/casino', {}],
      [
        { gameCode: 'casino', gameId: 'roulette', currency: 'eur', userIp: '203.0.113.9' },
        '/play/casino/game',
        { gameId: 'roulette', currency: 'EUR' },
      ],
      [{ gameCode: 'sport' }, '/play/sport', {}],
      [
        { gameCode: 'sport', gameID: 'match-1', currency: 'EUR' },
        '/play/sport/game',
        { gameId: 'match-1', currency: 'EUR' },
      ],
    ];
    for (const [params, path, extra] of cases) {
      const { path: actualPath, query } = await launch({ lang: 'de', ...params });
      expect(actualPath).toBe(`${PUBLIC_URL}${path}`);
      expect(query).toEqual({ auth: expect.stringMatching(/^[0-9a-f]{32}$/), lang: 'de', ...extra });
    }
  });

  it('uses the client URL per gameCode, keeping its own query, and marks internal auth', async () => {
    await h().addClient({
      launchUrls: { poker: 'https://games.example/poker?skin=blue', sport: 'https://sport.example/' },
    });
    const poker = await launch({ authType: 'internal', tableId: 3 });
    expect(poker.path).toBe('https://games.example/poker');
    expect(poker.query).toMatchObject({ skin: 'blue', tableId: '3', authType: 'internal', lang: 'en' });
    expect((await launch({ gameCode: 'sport' })).path).toBe('https://sport.example/');
  });
});
