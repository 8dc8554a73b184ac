import { sign } from '@poker-launch/sdk';
import { sha256Hex } from '@poker-launch/sdk/internal';
import { describe, expect, it } from 'vitest';
import { PUBLIC_URL, useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { openGame, openGameDocument } from '../../test-support/v3-requests.js';

const HEX_32 = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// Worked vector 4 of docs/design.md §2, byte for byte.
const VECTOR_4_BODY =
  '{"data":{"type":"OpenGame","attributes":{"session":{"id":"s-1","authType":"external","tableId":7,"longLifeLoginToken":true,"launchOptions":{"restoreSessionUrl":"https://op.example/r"}},"player":{"id":"u-1","nick":"Zoë","verified":false,"avatar":3}}}}';
const VECTOR_4_SIGN = '0d1cf9d1c81ffa65e0dcb8fa15e4b7fdeb2de2f62b4986ea6dfe8a1934624818';

describe.each(DIALECTS)('v3 open game on %s', (dialect) => {
  const h = useHarness(dialect);

  it('answers worked vector 4 over HTTP with 201, Location and the GameSession resource', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const address = await h().app.listen({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`${address}/apiweb/v3/open-game?client=demo`, {
      method: 'POST',
      headers: {
        'content-type': 'application/vnd.api+json',
        accept: 'application/vnd.api+json',
        sign: VECTOR_4_SIGN,
      },
      body: VECTOR_4_BODY,
    });
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const document = JSON.parse(text);
    expect(Object.keys(document)).toEqual(['data']);
    const { data } = document;
    expect(response.headers.get('location')).toBe(data.id);
    expect(data.id).toMatch(/^\/apiweb\/v3\/game-sessions\/[0-9a-f]{32}$/);
    expect(data.type).toBe('GameSession');
    expect(Object.keys(data.attributes).sort()).toEqual(['auth', 'playerId', 'sessionId', 'url']);
    expect(data.attributes).toMatchObject({ playerId: 'u-1', sessionId: 's-1' });
    expect(data.attributes.auth).toMatch(HEX_32);
    expect(data.id).not.toContain(data.attributes.auth);
    const url = new URL(data.attributes.url);
    expect(url.origin + url.pathname).toBe(`${PUBLIC_URL}/play/poker/table`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      auth: data.attributes.auth,
      lang: 'en',
      tableId: '7',
      launchOptions: '{"restoreSessionUrl":"https://op.example/r"}',
    });
    // longLifeLoginToken true: LongAuthorizationTicketLifetime (86400 s) from the harness clock.
    expect(data.meta).toEqual({ expiresAt: '2026-11-22T12:00:00.000Z' });
    const players = await h().db.selectFrom('players').selectAll().execute();
    expect(players).toHaveLength(1);
    expect(players[0]).toMatchObject({ external_id: 'u-1', nick: 'Zoë', verified: 0, avatar: 3 });
  });

  it('generates a UUID session id, opens the lobby and gives a long-life token when the session object is omitted', async () => {
    const response = await openGame(h(), openGameDocument({ id: 'u-1' }));
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json();
    expect(data.attributes.sessionId).toMatch(UUID);
    expect(data.attributes.url).toBe(`${PUBLIC_URL}/play/poker?auth=${data.attributes.auth}&lang=en`);
    expect(data.meta.expiresAt).toBe('2026-11-22T12:00:00.000Z');
    const session = await h().db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      api_version: 'v3',
      auth_type: 'external',
      long_life: 1,
      external_session_id: data.attributes.sessionId,
    });
    expect(data.id).toBe(`/apiweb/v3/game-sessions/${session.id}`);
  });

  it('takes player ids with dots, only "." and ".." alone being path steps a URL removes', async () => {
    for (const id of ['...', '.a', 'a..', '.-.']) {
      const response = await openGame(h(), openGameDocument({ id }));
      expect(response.statusCode, `${id}: ${response.body}`).toBe(201);
      expect(response.json().data.attributes.playerId).toBe(id);
    }
  });

  it('honours longLifeLoginToken false, authType internal, lang and userIp', async () => {
    await h().setSetting('AuthorizationTicketLifetime', '120');
    const response = await openGame(
      h(),
      openGameDocument(
        { id: 'u-1' },
        { longLifeLoginToken: false, authType: 'internal', lang: 'DE', userIp: '2001:db8::1' },
      ),
    );
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json();
    expect(data.meta.expiresAt).toBe('2026-11-21T12:02:00.000Z');
    expect(Object.fromEntries(new URL(data.attributes.url).searchParams)).toEqual({
      auth: data.attributes.auth,
      lang: 'de',
      authType: 'internal',
    });
    const session = await h().db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      auth_type: 'internal',
      long_life: 0,
      user_ip: '2001:db8::1',
      lang: 'de',
    });
  });

  it('reads launchOptions given as a JSON string like the object', async () => {
    const launchOptions = '{"restoreSessionUrl":"https://op.example/r","skin":"dark"}';
    const response = await openGame(h(), openGameDocument({ id: 'u-1' }, { launchOptions }));
    expect(response.statusCode, response.body).toBe(201);
    const url = new URL(response.json().data.attributes.url);
    expect(JSON.parse(url.searchParams.get('launchOptions') ?? '')).toEqual({
      restoreSessionUrl: 'https://op.example/r',
      skin: 'dark',
    });
  });

  it('accepts a signature computed with the client parameter kept', async () => {
    const client = await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const document = openGameDocument({ id: 'u-1', nick: 'Kept' });
    const kept = await sign({ client: 'demo', ...document }, 's3cr3t');
    expect(kept).not.toBe(await sign(document, 's3cr3t'));
    const response = await openGame(h(), document, { client, sign: kept });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('lets a client without a secret call unsigned', async () => {
    const client = await h().addClient({ id: 'open', secretKey: null });
    const response = await openGame(h(), openGameDocument({ id: 'u-1' }), { client, sign: null });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('stores only the SHA-256 of the auth token and a new session on every call', async () => {
    const first = (await openGame(h(), openGameDocument({ id: 'u-1' }))).json().data;
    const second = (await openGame(h(), openGameDocument({ id: 'u-1' }))).json().data;
    expect(second.id).not.toBe(first.id);
    expect(second.attributes.auth).not.toBe(first.attributes.auth);
    const rows = await h().db.selectFrom('sessions').selectAll().orderBy('created_at').execute();
    expect(rows.map((row) => row.token_hash).sort()).toEqual(
      [await sha256Hex(first.attributes.auth), await sha256Hex(second.attributes.auth)].sort(),
    );
    expect(JSON.stringify(rows)).not.toContain(first.attributes.auth);
    expect(h().logs()).not.toContain(first.attributes.auth);
  });

  it('never logs the sign or Authorization header', async () => {
    const document = openGameDocument({ id: 'u-1' });
    const signature = await sign(document, 'test_secret');
    await openGame(h(), document, {
      sign: signature,
      headers: { authorization: 'Bearer plk_secret-looking' },
    });
    expect(h().logs()).not.toContain(signature);
    expect(h().logs()).not.toContain('plk_secret-looking');
  });
});

describe.each(DIALECTS)('v3 player profiles on %s', (dialect) => {
  const h = useHarness(dialect);
  const player = () =>
    h().db.selectFrom('players').selectAll().where('external_id', '=', 'u-1').executeTakeFirstOrThrow();

  const FULL_PROFILE = {
    id: 'u-1',
    nick: 'Ace',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    referredBy: 'Babbage',
    referralCode: 'REF-1',
    bonusCode: 'WELCOME',
    avatar: 12,
    phoneNumber: '+44 20 7946 0000',
    tag: 'vip',
    active: false,
    verified: true,
    trustedLevel: 2,
    currency: 'eur',
    preferredCurrency: 'gbp',
    country: 'gb',
  };

  it('stores every profile field sent, codes upper-cased', async () => {
    await h().activateCurrencies('EUR');
    const response = await openGame(h(), openGameDocument(FULL_PROFILE));
    expect(response.statusCode, response.body).toBe(201);
    expect(await player()).toMatchObject({
      nick: 'Ace',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      referred_by: 'Babbage',
      referral_code: 'REF-1',
      bonus_code: 'WELCOME',
      avatar: 12,
      phone_number: '+44 20 7946 0000',
      tag: 'vip',
      active: 0,
      verified: 1,
      trusted_level: 2,
      currency: 'EUR',
      preferred_currency: 'GBP',
      country: 'GB',
    });
    expect(response.json().meta).toBeUndefined();
  });

  it('overwrites the fields sent and keeps the fields omitted', async () => {
    await h().activateCurrencies('EUR', 'USD');
    await openGame(h(), openGameDocument(FULL_PROFILE));
    const response = await openGame(
      h(),
      openGameDocument({ id: 'u-1', name: 'Ada King', active: true, avatar: 0, currency: 'USD' }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(await player()).toMatchObject({
      name: 'Ada King',
      active: 1,
      avatar: 0,
      currency: 'USD',
      nick: 'Ace',
      email: 'ada@example.com',
      verified: 1,
      trusted_level: 2,
      preferred_currency: 'GBP',
      country: 'GB',
    });
    expect(await h().db.selectFrom('players').selectAll().execute()).toHaveLength(1);
  });

  it('accepts XK, the country code in use for Kosovo', async () => {
    const response = await openGame(h(), openGameDocument({ id: 'u-1', country: 'xk' }));
    expect(response.statusCode, response.body).toBe(201);
    expect((await player()).country).toBe('XK');
  });

  it('accepts phone numbers as people write them', async () => {
    for (const phoneNumber of ['(555) 123-4567', '+1.555.123.4567', '0170 1234567', '112']) {
      const response = await openGame(h(), openGameDocument({ id: 'u-1', phoneNumber }));
      expect(response.statusCode, phoneNumber).toBe(201);
      expect((await player()).phone_number).toBe(phoneNumber);
    }
  });

  it('gives a new player the default active and verified settings', async () => {
    await h().setSetting('PlayerDefaultActive', 'false');
    await h().setSetting('PlayerDefaultVerified', 'true');
    await openGame(h(), openGameDocument({ id: 'u-1' }));
    expect(await player()).toMatchObject({ active: 0, verified: 1, nick: null, email: null });
  });

  it('does not apply an inactive optional currency and says so in meta.warnings', async () => {
    const response = await openGame(h(), openGameDocument({ id: 'u-1', currency: 'EUR' }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().meta).toEqual({ warnings: ['Currency EUR is not active; it was not applied'] });
    expect((await player()).currency).toBeNull();
    const unknown = await openGame(h(), openGameDocument({ id: 'u-1', currency: 'XYZ' }));
    expect(unknown.json().meta).toEqual({
      warnings: ['Currency XYZ is not an ISO 4217 code; it was not applied'],
    });
    const malformed = await openGame(h(), openGameDocument({ id: 'u-1', currency: 'Euro' }));
    expect(malformed.statusCode, malformed.body).toBe(201);
    expect(malformed.json().meta).toEqual({
      warnings: ['Currency EURO is not an ISO 4217 code; it was not applied'],
    });
  });

  it('answers 404 "Player not found" in internal player-id mode for an id it does not know', async () => {
    const client = await h().addClient({ id: 'internal', playerIdMode: 'internal' });
    const response = await openGame(h(), openGameDocument({ id: 'nobody' }), { client });
    expect(response.statusCode).toBe(404);
    expect(response.json().errors).toEqual([
      {
        status: 404,
        code: 'player_not_found',
        title: 'Not Found',
        detail: 'Player not found',
        source: { pointer: '/data/attributes/player/id' },
      },
    ]);
  });
});
