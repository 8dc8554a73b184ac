import { sign } from '@poker-launch/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { blockDocument, blockRequest } from '../test-support/control-requests.js';
import { encodePhpForm, useHarness } from '../test-support/harness.js';
import { DIALECTS } from '../test-support/test-database.js';
import { getGameSession, openGame, openGameDocument } from '../test-support/v3-requests.js';
import { TOKEN_API_URL } from '../token/token.routes.js';
import { ROLE_ADMIN } from '../users/api-user.js';
import { createApiUser } from '../users/create-api-user.js';

const NUL = '\u0000';
const ZERO_WIDTH_SPACE = '\u200B';
const RIGHT_TO_LEFT_OVERRIDE = '\u202E';
/** The explicit bidirectional formatting characters: embeddings and overrides, then isolates. */
const BIDI_FORMATTING = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];
const noBidi = (field: string) =>
  `${field} must not contain bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069)`;

/** [status, code, detail, pointer] of each error, to compare whole answers at a glance. */
const errorsOf = (response: LightMyRequestResponse) =>
  (
    response.json().errors as { status: number; code: string; detail: string; source?: { pointer: string } }[]
  ).map((error) => [error.status, error.code, error.detail, error.source?.pointer]);

const badClientParameter = (name: string) => [
  400,
  'bad_request',
  `The ${name} query parameter must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
  undefined,
];

/**
 * Every way a request carries text into the service, with NUL and other control characters: each is
 * refused naming the field (or, for an id in the path, 404), and PostgreSQL, which refuses NUL in text,
 * never sees one.
 */
describe.each(DIALECTS)('control characters and invisible text on %s', (dialect) => {
  const h = useHarness(dialect);
  const v2 = (query: string, userId = 'u-1', body: Record<string, unknown> = {}) =>
    h().app.inject({
      method: 'POST',
      url: `/api/web/v2/app/users/${userId}/session?${query}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: encodePhpForm(body),
    });

  it('answers 400 naming clientId for a v2 clientId no client can have, NUL included, without a database error', async () => {
    await h().addClient();
    for (const query of ['clientId=a%00b', 'clientId=%00', 'clientId[]=demo', `clientId=${'a'.repeat(65)}`]) {
      const response = await v2(query);
      expect(response.statusCode, query).toBe(400);
      expect(errorsOf(response), query).toEqual([badClientParameter('clientId')]);
    }
  });

  it('answers 400 naming client for a v3 client no client can have, signed or with an API key', async () => {
    await h().addClient();
    const created = await createApiUser(
      h().db,
      { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] },
      h().clock.now(),
    );
    if (!created.ok) throw new Error(created.reason);
    for (const clientId of [NUL, `demo${NUL}`, 'de mo']) {
      const signed = await openGame(h(), openGameDocument({ id: 'u-1' }), { clientId });
      expect(errorsOf(signed), clientId).toEqual([badClientParameter('client')]);
      const withKey = await openGame(h(), openGameDocument({ id: 'u-1' }), { clientId, apiKey: created.key });
      expect(errorsOf(withKey), clientId).toEqual([badClientParameter('client')]);
      const read = await getGameSession(h(), `/apiweb/v3/game-sessions/${'a'.repeat(32)}`, { clientId });
      expect(errorsOf(read), clientId).toEqual([badClientParameter('client')]);
    }
  });

  it('answers 422 for NUL in the v2 path userId and in every v2 text field, each with its pointer', async () => {
    const response = await h().createSession(`u${NUL}1`, {
      nick: `Ann${NUL}`,
      sessionId: `s${NUL}`,
      gameCode: 'sport',
      gameId: `g${NUL}`,
      currency: `EUR${NUL}`,
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(errorsOf(response)).toEqual(
      ['userId', 'sessionId', 'nick', 'currency', 'gameId'].map((field) => [
        422,
        'invalid_field',
        `${field} must not contain control characters`,
        `/data/attributes/${field}`,
      ]),
    );
  });

  it('answers 422 field_required for an empty path userId, where it answered an empty errors list', async () => {
    await h().addClient();
    const response = await v2('clientId=demo', '');
    expect(response.statusCode).toBe(400); // unsigned: the signature comes first
    const signed = await h().createSession('', {});
    expect(signed.statusCode).toBe(422);
    expect(errorsOf(signed)).toEqual([
      [422, 'field_required', 'userId cannot be blank', '/data/attributes/userId'],
    ]);
  });

  it('answers 422 for control characters anywhere in launchOptions, keys included', async () => {
    for (const launchOptions of [
      { restoreSessionUrl: `https://casino.example/r${NUL}` },
      { deep: { list: ['ok', 'bell\u0007'] } },
      { [`key${NUL}`]: 'value' },
      JSON.stringify({ note: `x${NUL}` }),
    ]) {
      const response = await h().createSession('u-1', { launchOptions }, { format: 'json' });
      expect(errorsOf(response)).toEqual([
        [
          422,
          'invalid_field',
          'launchOptions must not contain control characters',
          '/data/attributes/launchOptions',
        ],
      ]);
    }
  });

  it('answers 422, not 500, for a v2 body userId that is an object, in a form and in JSON', async () => {
    await h().addClient();
    const userIdNotText = [
      [422, 'invalid_field', 'userId must be a string or an integer', '/data/attributes/userId'],
    ];
    const form = await v2('clientId=demo', 'u-1', { userId: { toString: 'x' } });
    expect(errorsOf(form)).toEqual(userIdNotText);
    for (const userId of [{ toString: 1 }, { valueOf: 1 }, ['u-1'], true]) {
      const json = await h().createSession('u-1', { userId }, { format: 'json' });
      expect(json.statusCode, JSON.stringify(userId)).toBe(422);
      expect(errorsOf(json)).toEqual(userIdNotText);
    }
    expect(h().logs()).not.toContain('unhandled error');
  });

  it('answers 400 naming the member for a lone UTF-16 surrogate in a JSON body, where PostgreSQL answered 500', async () => {
    // JSON's \u escapes can encode half a surrogate pair, which no text holds: PHP's json_decode refuses
    // it, PostgreSQL refuses to store it, and SQLite stored it. Refused alike on both, before any work.
    const loneSurrogate = (pointer: string) => [
      [
        400,
        'bad_request',
        `The request body holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair) at ${pointer}: JSON text must encode whole characters`,
        pointer,
      ],
    ];
    // v2's flat parameters point where its field errors do: /data/attributes/<name>.
    for (const [params, pointer] of [
      [{ nick: '\uD800' }, '/data/attributes/nick'],
      [{ sessionId: 'x\uDFFF' }, '/data/attributes/sessionId'],
      [
        { launchOptions: { restoreSessionUrl: 'https://casino.example/\uDBFF' } },
        '/data/attributes/launchOptions/restoreSessionUrl',
      ],
      [{ launchOptions: { 'k\uDC00': 'v' } }, '/data/attributes/launchOptions/k\uFFFD'],
    ] as const) {
      const response = await h().createSession('u-1', params, { format: 'json' });
      expect(errorsOf(response), pointer).toEqual(loneSurrogate(pointer));
    }
    for (const [player, pointer] of [
      [{ id: 'u-2', nick: '\uD800' }, '/data/attributes/player/nick'],
      [{ id: '\uDC00' }, '/data/attributes/player/id'],
    ] as const) {
      const response = await openGame(h(), openGameDocument(player));
      expect(errorsOf(response), pointer).toEqual(loneSurrogate(pointer));
    }
    // A whole pair is a character like any other.
    expect((await h().createSession('u-3', { nick: 'Ace\uD83C\uDCA1' }, { format: 'json' })).statusCode).toBe(
      200,
    );
    expect(h().logs()).not.toContain('unhandled error');
  });

  it('answers 422 for NUL in every v3 text field, e-mail included', async () => {
    const fields = ['id', 'nick', 'name', 'email', 'referredBy', 'referralCode', 'bonusCode', 'tag'];
    const player = Object.fromEntries(fields.map((field) => [field, `a${NUL}b@example.com`]));
    const response = await openGame(h(), openGameDocument(player, { id: `s${NUL}`, lang: `e${NUL}` }));
    expect(response.statusCode, response.body).toBe(422);
    expect(errorsOf(response)).toEqual([
      [422, 'invalid_field', 'session.id must not contain control characters', '/data/attributes/session/id'],
      [
        422,
        'invalid_field',
        'session.lang must be an ISO 639-1 language code, optionally with a region (en, pt-BR)',
        '/data/attributes/session/lang',
      ],
      ...fields.map((field) => [
        422,
        'invalid_field',
        `player.${field} must not contain control characters`,
        `/data/attributes/player/${field}`,
      ]),
    ]);
  });

  it('answers 422 for an e-mail address with a control character, which the address rule alone let through', async () => {
    for (const email of [`ann${NUL}@example.com`, 'ann\u0001@example.com', 'ann@exa\u009fmple.com']) {
      const response = await openGame(h(), openGameDocument({ id: 'u-1', email }));
      expect(errorsOf(response), JSON.stringify(email)).toEqual([
        [
          422,
          'invalid_field',
          'player.email must not contain control characters',
          '/data/attributes/player/email',
        ],
      ]);
    }
  });

  it('answers 404 for a game-session id with NUL or of any other form than a session id', async () => {
    await h().addClient();
    for (const id of [NUL, `${'a'.repeat(31)}${NUL}`, 'A'.repeat(32), 'x']) {
      const response = await getGameSession(h(), `/apiweb/v3/game-sessions/${encodeURIComponent(id)}`);
      expect(response.statusCode, JSON.stringify(id)).toBe(404);
      expect(response.json().errors[0].code).toBe('not_found');
    }
  });

  it('answers 401 to a token with NUL on the token API, and serves a game page whose auth has one', async () => {
    await h().addClient();
    const viaQuery = await h().app.inject({ method: 'GET', url: `${TOKEN_API_URL}?access-token=%00` });
    expect(viaQuery.statusCode).toBe(401);
    expect(viaQuery.json().errors[0].code).toBe('token_invalid');
    const page = await h().app.inject({ method: 'GET', url: '/play/poker?auth=a%00b&lang=en' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('refuses a nick made only of invisible characters in v2 and v3, so invisible nicks cannot collide', async () => {
    for (const nick of [
      ZERO_WIDTH_SPACE,
      '\u200C\u200D',
      '\u2060\uFEFF',
      '\u3164',
      ` ${ZERO_WIDTH_SPACE} `,
    ]) {
      const v2Answer = await h().createSession('u-1', { nick });
      expect(errorsOf(v2Answer), JSON.stringify(nick)).toEqual([
        [422, 'invalid_field', 'nick must not be blank', '/data/attributes/nick'],
      ]);
      const v3Answer = await openGame(h(), openGameDocument({ id: 'u-2', nick }));
      expect(errorsOf(v3Answer), JSON.stringify(nick)).toEqual([
        [422, 'invalid_field', 'player.nick must not be blank', '/data/attributes/player/nick'],
      ]);
    }
    expect((await h().createSession('u-1', { nick: `Ann${ZERO_WIDTH_SPACE}` })).statusCode).toBe(200);
  });

  it("refuses a nick that a bidi override shows as another player's, in v2 and v3, and then launches that player", async () => {
    // "Bob\u202Edcba" shows as "Bobabcd", but its nick key keeps "bobdcba": two players, one name on screen.
    const spoof = `Bob${RIGHT_TO_LEFT_OVERRIDE}dcba`;
    expect(errorsOf(await h().createSession('u-1', { nick: spoof }))).toEqual([
      [422, 'invalid_field', noBidi('nick'), '/data/attributes/nick'],
    ]);
    expect(errorsOf(await openGame(h(), openGameDocument({ id: 'u-2', nick: spoof })))).toEqual([
      [422, 'invalid_field', noBidi('player.nick'), '/data/attributes/player/nick'],
    ]);
    expect((await h().createSession('u-3', { nick: 'Bobabcd' })).statusCode).toBe(200);
    for (const character of BIDI_FORMATTING) {
      const v2Answer = await h().createSession('u-1', { nick: `Ann${character}x` });
      expect(errorsOf(v2Answer), JSON.stringify(character)).toEqual([
        [422, 'invalid_field', noBidi('nick'), '/data/attributes/nick'],
      ]);
      const v3Answer = await openGame(h(), openGameDocument({ id: 'u-2', nick: `${character}Ann` }));
      expect(errorsOf(v3Answer), JSON.stringify(character)).toEqual([
        [422, 'invalid_field', noBidi('player.nick'), '/data/attributes/player/nick'],
      ]);
    }
  });

  it('refuses bidi formatting characters in every v2 and v3 text field, ids, e-mail and launchOptions included', async () => {
    const isolate = '\u2067';
    const v2Answer = await h().createSession(`u${isolate}1`, {
      nick: `Ann${isolate}`,
      sessionId: `s${isolate}`,
      gameCode: 'sport',
      gameId: `g${isolate}`,
      currency: `EUR${isolate}`,
    });
    expect(errorsOf(v2Answer)).toEqual(
      ['userId', 'sessionId', 'nick', 'currency', 'gameId'].map((field) => [
        422,
        'invalid_field',
        noBidi(field),
        `/data/attributes/${field}`,
      ]),
    );
    const fields = ['id', 'nick', 'name', 'email', 'referredBy', 'referralCode', 'bonusCode', 'tag'];
    const player = Object.fromEntries(fields.map((field) => [field, `a${isolate}b@example.com`]));
    const v3Answer = await openGame(h(), openGameDocument(player, { id: `s${isolate}` }));
    expect(errorsOf(v3Answer)).toEqual([
      [422, 'invalid_field', noBidi('session.id'), '/data/attributes/session/id'],
      ...fields.map((field) => [
        422,
        'invalid_field',
        noBidi(`player.${field}`),
        `/data/attributes/player/${field}`,
      ]),
    ]);
    for (const launchOptions of [{ note: `x${RIGHT_TO_LEFT_OVERRIDE}y` }, { [`k${isolate}`]: 'v' }]) {
      const response = await h().createSession('u-1', { launchOptions }, { format: 'json' });
      expect(errorsOf(response)).toEqual([
        [422, 'invalid_field', noBidi('launchOptions'), '/data/attributes/launchOptions'],
      ]);
    }
    // A control character is named first when a text has both.
    expect(errorsOf(await h().createSession('u-1', { nick: `A${RIGHT_TO_LEFT_OVERRIDE}${NUL}` }))).toEqual([
      [422, 'invalid_field', 'nick must not contain control characters', '/data/attributes/nick'],
    ]);
  });

  it("refuses bidi formatting characters in a block's reason, and still finds a player stored with them", async () => {
    expect((await h().createSession('u-1', {})).statusCode).toBe(200);
    const block = await blockRequest(h(), 'PUT', 'u-1', {
      body: blockDocument({ reason: `self${RIGHT_TO_LEFT_OVERRIDE}exclusion` }),
    });
    expect(errorsOf(block)).toEqual([[422, 'invalid_field', noBidi('reason'), '/data/attributes/reason']]);
    // A player id the launches refuse now, of a player stored before they did: session control still
    // reaches it (a self-exclusion must not fail on it), and an id no player has is 404, not 422.
    const storedBefore = `u${RIGHT_TO_LEFT_OVERRIDE}1`;
    await h()
      .db.updateTable('players')
      .set({ external_id: storedBefore })
      .where('external_id', '=', 'u-1')
      .execute();
    expect((await h().createSession(storedBefore, {})).statusCode).toBe(422);
    const blocked = await blockRequest(h(), 'PUT', storedBefore, {
      body: blockDocument({ reason: 'self-exclusion' }),
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect((await blockRequest(h(), 'GET', storedBefore)).json().data.attributes.blocked).toBe(true);
    expect(errorsOf(await blockRequest(h(), 'GET', `x${RIGHT_TO_LEFT_OVERRIDE}2`))).toEqual([
      [404, 'player_not_found', 'Player not found', undefined],
    ]);
    // A control character is never an id.
    expect((await blockRequest(h(), 'GET', 'u\u00001')).statusCode).toBe(422);
  });

  it('takes the bidi marks of right-to-left names and the zero-width joiner of emoji', async () => {
    for (const [userId, nick] of [
      ['u-1', '\u05D3\u05E0\u05D4\u200F'], // Hebrew with a right-to-left mark
      ['u-2', 'Dana\u200E'], // a left-to-right mark
      ['u-3', 'Chef \u{1F469}\u200D\u{1F373}'], // woman cook: two emoji and a joiner
    ]) {
      const v2Answer = await h().createSession(userId ?? '', { nick });
      expect(v2Answer.statusCode, v2Answer.body).toBe(200);
      const v3Answer = await openGame(h(), openGameDocument({ id: `${userId}`, nick, name: nick }));
      expect(v3Answer.statusCode, v3Answer.body).toBe(201);
    }
  });

  it('launches with a nick and launchOptions free of control characters, signed as before', async () => {
    const client = await h().addClient();
    const params = { nick: 'Zoë', launchOptions: { note: 'tab-free text' } };
    const signature = await sign({ ...params, userId: 'u-1' }, client.secretKey ?? '');
    const response = await h().createSession('u-1', params, { sign: signature });
    expect(response.statusCode, response.body).toBe(200);
  });
});
