import { describe, expect, it } from 'vitest';
import { updateClient } from '../clients/client.repository.js';
import { insertPlayerIfAbsent } from '../players/player.repository.js';
import { purgeExpiredSessions } from '../sessions/session-purge.js';
import { useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { TOKEN_API_URL } from './token.routes.js';

const INVALID_TOKEN = 'Bearer error="invalid_token"';

/** The headers that differ between two answers only because they are two requests. */
const withoutRequestId = ({ 'x-request-id': _id, date: _date, ...headers }: Record<string, unknown>) =>
  headers;

describe.each(DIALECTS)('token API on %s', (dialect) => {
  const h = useHarness(dialect);

  const launch = async (userId = 'u-1', params: Record<string, unknown> = {}) => {
    const response = await h().createSession(userId, params);
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    return { auth: data.attributes.auth as string, id: data.id as string };
  };
  const get = (auth: string, headers: Record<string, string> = {}) =>
    h().app.inject({
      method: 'GET',
      url: TOKEN_API_URL,
      headers: { authorization: `Bearer ${auth}`, ...headers },
    });
  const remove = (auth: string) =>
    h().app.inject({ method: 'DELETE', url: TOKEN_API_URL, headers: { authorization: `Bearer ${auth}` } });
  const errorOf = (response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) => {
    const document = response.json() as { errors: { code: string; status: number }[]; meta: object };
    return { status: response.statusCode, challenge: response.headers['www-authenticate'], ...document };
  };

  it('answers the session resource to Authorization: Bearer', async () => {
    const { auth, id } = await launch('u-1', {
      nick: 'Ada',
      lang: 'de',
      sessionId: 'ext-1',
      launchOptions: { restoreSessionUrl: 'https://casino.example/restore', skin: 'blue' },
    });
    h().clock.advance(60);
    const response = await get(auth);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.api+json');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      data: {
        id,
        type: 'session',
        attributes: {
          'session-id': 'ext-1',
          player: { 'user-id': 'u-1', nick: 'Ada' },
          target: { gameCode: 'poker', tableId: null },
          lang: 'de',
          currency: null,
          launchOptions: { restoreSessionUrl: 'https://casino.example/restore', skin: 'blue' },
          state: 'active',
          expiresAt: '2026-11-21T12:10:00.000Z',
        },
      },
      meta: { serverTime: '2026-11-21T12:01:00.000Z', client: 'demo' },
    });
    expect(response.body).not.toContain(auth);
  });

  it('answers in a form no page can frame, sniff as markup, cache or read from another origin', async () => {
    const { auth } = await launch('u-1', { nick: '<script>1</script>' });
    const origin = { origin: 'https://evil.example' };
    const answers = [
      await get(auth, origin),
      await get('0'.repeat(32), origin),
      await h().app.inject({ method: 'GET', url: TOKEN_API_URL, headers: origin }),
    ];
    for (const response of answers) {
      expect(response.headers).toMatchObject({
        'content-type': 'application/vnd.api+json',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        'x-frame-options': 'DENY',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
      // No CORS: a script on another origin cannot read the session, even holding the token.
      expect(response.headers).not.toHaveProperty('access-control-allow-origin');
      expect(response.headers).not.toHaveProperty('access-control-allow-credentials');
    }
    const preflight = await h().app.inject({
      method: 'OPTIONS',
      url: TOKEN_API_URL,
      headers: {
        ...origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.statusCode).toBe(405);
    expect(preflight.headers).not.toHaveProperty('access-control-allow-origin');
    expect(preflight.headers).not.toHaveProperty('access-control-allow-headers');
  });

  it('accepts the token as ?access-token= too', async () => {
    const { auth, id } = await launch();
    const response = await h().app.inject({ method: 'GET', url: `${TOKEN_API_URL}?access-token=${auth}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.id).toBe(id);
  });

  it('describes table, casino game and sport targets with the session currency', async () => {
    await h().activateCurrencies('EUR');
    const table = await launch('u-1', { tableId: '7' });
    const casino = await launch('u-2', { gameCode: 'casino', gameId: 'roulette', currency: 'EUR' });
    const sport = await launch('u-3', { gameCode: 'sport' });
    const attributesOf = async (auth: string) => (await get(auth)).json().data.attributes;
    expect((await attributesOf(table.auth)).target).toEqual({ gameCode: 'poker', tableId: 7 });
    expect(await attributesOf(casino.auth)).toMatchObject({
      target: { gameCode: 'casino', gameId: 'roulette' },
      currency: 'EUR',
    });
    expect((await attributesOf(sport.auth)).target).toEqual({ gameCode: 'sport', gameId: null });
  });

  it("answers the service's own player id as user-id in internal player-id mode", async () => {
    const client = await h().addClient({ id: 'internal', playerIdMode: 'internal' });
    const player = await insertPlayerIfAbsent(
      h().db,
      {
        clientId: client.id,
        externalId: 'their-42',
        profile: { nick: 'Int' },
        active: true,
        verified: false,
      },
      h().clock.now(),
    );
    const response = await h().createSession(player.id, {}, { client });
    const attributes = (await get(response.json().data.attributes.auth)).json().data.attributes;
    expect(attributes.player).toEqual({ 'user-id': player.id, nick: 'Int' });
  });

  it('answers 401 unauthorized with a bare Bearer challenge when no bearer token is sent', async () => {
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }]) {
      const response = await h().app.inject({ method: 'GET', url: TOKEN_API_URL, headers });
      expect(errorOf(response)).toMatchObject({
        status: 401,
        challenge: 'Bearer',
        errors: [{ status: 401, code: 'unauthorized' }],
      });
    }
  });

  it('answers 401 token_invalid for a value that is not of the form of an issued token', async () => {
    await launch();
    for (const token of ['nope', 'A'.repeat(32), '0'.repeat(31), '0'.repeat(33)]) {
      const response = await get(token);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(errorOf(response)).toMatchObject({
        status: 401,
        challenge: INVALID_TOKEN,
        errors: [{ status: 401, code: 'token_invalid', title: 'Unauthorized' }],
      });
    }
  });

  it('answers a purged token, or any unknown one, exactly as an expired token', async () => {
    const purged = await launch('u-1');
    h().clock.advance(3601);
    const expired = await launch('u-2');
    h().clock.advance(600);
    const anHourAgo = new Date(h().clock.now().getTime() - 3600_000);
    expect(await purgeExpiredSessions(h().db, { before: anHourAgo, limit: 10 })).toBe(1);
    expect(await h().db.selectFrom('sessions').select('id').execute()).toEqual([{ id: expired.id }]);

    const answerOf = async (auth: string) => {
      const response = await get(auth);
      const { meta, ...document } = response.json();
      return { status: response.statusCode, headers: withoutRequestId(response.headers), document };
    };
    const expiredAnswer = await answerOf(expired.auth);
    expect(expiredAnswer.document.errors).toMatchObject([{ code: 'token_expired' }]);
    expect(await answerOf(purged.auth)).toEqual(expiredAnswer);
    expect(await answerOf('0'.repeat(32))).toEqual(expiredAnswer);
  });

  it('answers 401 token_expired from the second of expiry on, with the restoreSessionUrl in meta', async () => {
    const { auth } = await launch('u-1', {
      launchOptions: { restoreSessionUrl: 'https://casino.example/r' },
    });
    h().clock.advance(599);
    expect((await get(auth)).statusCode).toBe(200);
    h().clock.advance(1);
    const error = errorOf(await get(auth));
    expect(error).toMatchObject({
      status: 401,
      challenge: INVALID_TOKEN,
      errors: [{ code: 'token_expired' }],
      meta: { restoreSessionUrl: 'https://casino.example/r' },
    });
    const plain = await launch('u-2');
    h().clock.advance(600);
    expect(errorOf(await get(plain.auth)).meta).not.toHaveProperty('restoreSessionUrl');
  });

  it('revokes the session on DELETE: 204, then GET and DELETE answer token_revoked, also after expiry', async () => {
    const { auth } = await launch();
    const other = await launch('u-2');
    const response = await remove(auth);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(errorOf(await get(auth))).toMatchObject({
      status: 401,
      challenge: INVALID_TOKEN,
      errors: [{ code: 'token_revoked' }],
    });
    expect(errorOf(await remove(auth)).errors[0]?.code).toBe('token_revoked');
    expect((await get(other.auth)).statusCode).toBe(200);
    h().clock.advance(3600);
    expect(errorOf(await get(auth)).errors[0]?.code).toBe('token_revoked');
    const row = await h()
      .db.selectFrom('sessions')
      .select('revoked_at')
      .where('revoked_at', 'is not', null)
      .execute();
    expect(row).toEqual([{ revoked_at: '2026-11-21T12:00:00.000Z' }]);
  });

  it('counts the sessions of a disabled client as revoked', async () => {
    const client = await h().addClient();
    const { auth } = await launch();
    await updateClient(h().db, client.id, { active: false }, h().clock.now());
    await h().refresh();
    expect(errorOf(await get(auth)).errors[0]?.code).toBe('token_revoked');
  });

  it('answers 400 when the token comes both as a header and in the query', async () => {
    const { auth } = await launch();
    const response = await h().app.inject({
      method: 'GET',
      url: `${TOKEN_API_URL}?access-token=${auth}`,
      headers: { authorization: `Bearer ${auth}` },
    });
    expect(errorOf(response)).toMatchObject({ status: 400, errors: [{ code: 'bad_request' }] });
  });

  it('answers 406 when Accept admits no JSON and 405 for other methods', async () => {
    const { auth } = await launch();
    expect((await get(auth, { accept: 'text/html' })).statusCode).toBe(406);
    const post = await h().app.inject({ method: 'POST', url: TOKEN_API_URL });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, DELETE');
  });

  it('sends HSTS on success and on failure, PUBLIC_URL being https', async () => {
    const { auth } = await launch();
    expect((await get(auth)).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await get('nope')).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await remove(auth)).headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('never writes the auth token to the logs, from the token API or from a game page URL', async () => {
    const first = await launch();
    const second = await launch('u-2');
    expect((await h().app.inject({ url: `${TOKEN_API_URL}?access-token=${first.auth}` })).statusCode).toBe(
      200,
    );
    expect((await h().app.inject({ url: `/play/poker?auth=${second.auth}&lang=en` })).statusCode).toBe(200);
    await get(second.auth);
    const logs = h().logs();
    expect(logs).toContain(`${TOKEN_API_URL}?access-token=[redacted]`);
    expect(logs).toContain('/play/poker?auth=[redacted]&lang=en');
    expect(logs).not.toContain(first.auth);
    expect(logs).not.toContain(second.auth);
  });
});

describe.each(DIALECTS)('token API over plain http on %s', (dialect) => {
  const h = useHarness(dialect, { PUBLIC_URL: 'http://127.0.0.1:8080' });

  it('sends no HSTS when PUBLIC_URL is http', async () => {
    const response = await h().app.inject({ method: 'GET', url: TOKEN_API_URL });
    expect(response.statusCode).toBe(401);
    expect(response.headers).not.toHaveProperty('strict-transport-security');
  });
});
