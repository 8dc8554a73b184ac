import { sign } from '@poker-launch/sdk';
import { describe, expect, it } from 'vitest';
import type { Client } from '../../clients/client.js';
import { useHarness, useSharedHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';
import { openGame, openGameDocument } from '../../test-support/v3-requests.js';

const SIGNATURE_ERROR = {
  status: 400,
  code: 'invalid_signature',
  title: 'Bad Request',
  detail: 'Not valid request signature',
};

const unprocessable = (code: string, detail: string, pointer: string) => ({
  status: 422,
  code,
  title: 'Unprocessable Entity',
  detail,
  source: { pointer },
});

const player = (field: string) => `/data/attributes/player/${field}`;
const session = (field: string) => `/data/attributes/session/${field}`;

const CURRENCY_MANDATORY = { currencyMandatory: true };
const withPlayer = (attributes: Record<string, unknown>): [Record<string, unknown>] => [
  { id: 'u-1', ...attributes },
];

/** The spec's refusals of one field: each request of a row (player, session) is answered with exactly that one error. */
const SPEC_REFUSALS: {
  when: string;
  client?: Partial<Client>;
  currencies?: string[];
  requests: [Record<string, unknown>, Record<string, unknown>?][];
  code: string;
  detail: string;
  pointer: string;
  meta?: Record<string, unknown>;
}[] = [
  {
    when: 'an authType other than internal or external',
    requests: [[{ id: 'u-1' }, { authType: 'token' }]],
    code: 'auth_type_not_valid',
    detail: 'Auth type not valid',
    pointer: session('authType'),
    meta: { allowedValues: ['internal', 'external'] },
  },
  {
    when: 'no currency where the client makes it mandatory',
    client: CURRENCY_MANDATORY,
    requests: [withPlayer({})],
    code: 'currency_blank',
    detail: 'Currency cannot be blank',
    pointer: player('currency'),
  },
  {
    when: 'a mandatory currency, alone, for any text that is not an ISO 4217 code',
    client: CURRENCY_MANDATORY,
    requests: ['XYZ', 'EURO', 'EU', 'euro', 'E', 'not a currency', 'C'.repeat(32)].map((currency) =>
      withPlayer({ currency }),
    ),
    code: 'currency_not_found',
    detail: 'Currency not found',
    pointer: player('currency'),
  },
  {
    when: 'a mandatory currency of over 32 characters (only invalid_field, not also currency_blank)',
    client: CURRENCY_MANDATORY,
    requests: [withPlayer({ currency: 'C'.repeat(33) })],
    code: 'invalid_field',
    detail: 'player.currency must be at most 32 characters long',
    pointer: player('currency'),
  },
  {
    when: 'a mandatory currency that is not text (only invalid_field, not also currency_blank)',
    client: CURRENCY_MANDATORY,
    requests: [withPlayer({ currency: 978 })],
    code: 'invalid_field',
    detail: 'player.currency must be a string',
    pointer: player('currency'),
  },
  {
    when: 'a known mandatory currency the operator has not activated',
    client: CURRENCY_MANDATORY,
    currencies: ['USD'],
    requests: [withPlayer({ currency: 'EUR' })],
    code: 'currency_not_active',
    detail: 'This currency is not active',
    pointer: player('currency'),
  },
  {
    when: 'a nick longer than any NickMaxLength (255)',
    requests: [withPlayer({ nick: 'x'.repeat(256) }), withPlayer({ nick: 'x'.repeat(10_000) })],
    code: 'username_too_long',
    detail: 'The maximum username length is 20',
    pointer: player('nick'),
  },
];

describe.each(DIALECTS)('v3 errors of the spec table on %s', (dialect) => {
  const h = useHarness(dialect);

  it('answers 400 "Not valid request signature" for a wrong, missing or foreign sign, an unknown or a disabled client', async () => {
    const client = await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    await h().addClient({ id: 'other', secretKey: 'other-secret' });
    const disabled = await h().addClient({ id: 'off', secretKey: 'off-secret', active: false });
    const document = openGameDocument({ id: 'u-1' });
    const cases = [
      openGame(h(), document, { client, sign: 'f'.repeat(64) }),
      openGame(h(), document, { client, sign: null }),
      openGame(h(), document, { client, sign: await sign(document, 'other-secret') }),
      openGame(h(), document, { client, clientId: 'nobody' }),
      openGame(h(), document, { client, clientId: null }),
      openGame(h(), document, { client: disabled }),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([SIGNATURE_ERROR]);
    }
    expect(await h().db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('refuses a signed document once any signed value changes', async () => {
    const signed = openGameDocument({ id: 'u-1', nick: 'Before' });
    const response = await openGame(h(), openGameDocument({ id: 'u-1', nick: 'After' }), {
      sign: await sign(signed, 'test_secret'),
    });
    expect(response.statusCode).toBe(400);
  });

  it('shows the canonical and the alternative string in a staging signature error', async () => {
    await h().addClient({ id: 'demo', secretKey: 's3cr3t' });
    const response = await openGame(h(), openGameDocument({ id: 'u-1', nick: 'Zoë' }), { sign: 'bad' });
    expect(response.json().meta.signature).toEqual({
      canonical: 'u-1ZoëOpenGame',
      acceptedAlternative: 'demou-1ZoëOpenGame',
      hints: [],
      tester: `${h().config.publicUrl}/tools/signature`,
    });
  });

  it.each(SPEC_REFUSALS.map((row) => [`${row.code} for ${row.when}`, row] as const))(
    'answers %s',
    async (_title, { code, client, currencies, requests, detail, pointer, meta }) => {
      const options = client ? { client: await h().addClient({ id: 'strict', ...client }) } : {};
      if (currencies) await h().activateCurrencies(...currencies);
      for (const [playerAttributes, sessionAttributes] of requests) {
        const response = await openGame(h(), openGameDocument(playerAttributes, sessionAttributes), options);
        expect(response.statusCode, JSON.stringify(playerAttributes)).toBe(422);
        expect(response.json().errors, JSON.stringify(playerAttributes)).toEqual([
          { ...unprocessable(code, detail, pointer), ...(meta ? { meta } : {}) },
        ]);
      }
      expect(await h().db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    },
  );

  it('takes a mandatory currency the operator has activated, in any case', async () => {
    const client = await h().addClient({ id: 'strict', currencyMandatory: true });
    await h().activateCurrencies('USD');
    const ok = await openGame(h(), openGameDocument({ id: 'u-1', currency: 'usd' }), { client });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('answers 422 "A Player with this username already exists in the system." for a nick another player holds', async () => {
    expect((await openGame(h(), openGameDocument({ id: 'u-1', nick: 'Zoë' }))).statusCode).toBe(201);
    const response = await openGame(h(), openGameDocument({ id: 'u-2', nick: 'ZOË' }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([
      unprocessable(
        'username_exists',
        'A Player with this username already exists in the system.',
        player('nick'),
      ),
    ]);
    // Nothing of the refused request was kept: not the player, not a session.
    expect(await h().db.selectFrom('players').select('external_id').execute()).toEqual([
      { external_id: 'u-1' },
    ]);
    expect(await h().db.selectFrom('sessions').selectAll().execute()).toHaveLength(1);
  });

  it('answers 422 "The maximum username length is N" with the configured N', async () => {
    const tooLong = await openGame(h(), openGameDocument({ id: 'u-1', nick: 'x'.repeat(21) }));
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors).toEqual([
      unprocessable('username_too_long', 'The maximum username length is 20', player('nick')),
    ]);
    expect((await openGame(h(), openGameDocument({ id: 'u-1', nick: 'x'.repeat(20) }))).statusCode).toBe(201);
    await h().setSetting('NickMaxLength', '8');
    const configured = await openGame(h(), openGameDocument({ id: 'u-2', nick: 'ninechars' }));
    expect(configured.json().errors[0].detail).toBe('The maximum username length is 8');
  });
});

describe.each(DIALECTS)('v3 document and media type errors on %s', (dialect) => {
  const h = useHarness(dialect);

  it('answers 415 for a form body or any other media type, naming those it takes', async () => {
    // A form reaches the route, which refuses it; no parser exists for the others at all, so the
    // framework refuses them before the route can: the answer is the same.
    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', 'data[type]=OpenGame&data[attributes][player][id]=u-1'],
      ['text/plain', 'hello'],
      ['application/xml', '<data/>'],
      ['multipart/form-data; boundary=x', 'hello'],
    ] as const) {
      const response = await openGame(h(), body, { contentType, sign: null });
      expect(response.statusCode, contentType).toBe(415);
      expect(response.json().errors).toEqual([
        {
          status: 415,
          code: 'unsupported_media_type',
          title: 'Unsupported Media Type',
          detail: 'The request body must be one of: application/json, application/vnd.api+json',
        },
      ]);
    }
  });

  it('accepts application/json as well as application/vnd.api+json', async () => {
    const response = await openGame(h(), openGameDocument({ id: 'u-1' }), {
      contentType: 'application/json',
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('answers 400 bad_request for a body that is not a JSON:API OpenGame document', async () => {
    const cases: [unknown, string, string | undefined][] = [
      [{}, 'The request body must be a JSON:API document with a data object', undefined],
      [[], 'The request body must be a JSON:API document with a data object', undefined],
      // Signed as PHP reads a list (json_decode: an array of 0 => 1, 1 => 2), so its sign holds.
      [[1, 2], 'The request body must be a JSON:API document with a data object', undefined],
      [{ data: [] }, 'The request body must be a JSON:API document with a data object', undefined],
      [{ data: { attributes: {} } }, 'data.type must be a string', '/data/type'],
      [{ data: { type: 'OpenGame' } }, 'data.attributes must be an object', '/data/attributes'],
      [
        { data: { type: 'OpenGame', attributes: { session: {} } } },
        'data.attributes.player must be an object',
        '/data/attributes/player',
      ],
      [
        { data: { type: 'OpenGame', attributes: { player: 'u-1' } } },
        'data.attributes.player must be an object',
        '/data/attributes/player',
      ],
      [
        { data: { type: 'OpenGame', attributes: { player: { id: 'u-1' }, session: [] } } },
        'data.attributes.session must be an object',
        '/data/attributes/session',
      ],
    ];
    for (const [body, detail, pointer] of cases) {
      const response = await openGame(h(), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errors).toEqual([
        {
          status: 400,
          code: 'bad_request',
          title: 'Bad Request',
          detail,
          ...(pointer === undefined ? {} : { source: { pointer } }),
        },
      ]);
    }
  });

  it('answers 400 for a body that is not JSON at all', async () => {
    const client = await h().addClient({ id: 'open', secretKey: null });
    const response = await openGame(h(), '{"data":', { client });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toMatchObject({ code: 'bad_request' });
  });

  it('answers 409 type_conflict for a document of another type', async () => {
    const response = await openGame(h(), {
      data: { type: 'GameSession', attributes: { player: { id: 'u-1' } } },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors).toEqual([
      {
        status: 409,
        code: 'type_conflict',
        title: 'Conflict',
        detail: 'data.type must be OpenGame, not GameSession',
        source: { pointer: '/data/type' },
      },
    ]);
  });

  it('checks the caller before the document: a bad signature on a malformed body is still the 400 signature error', async () => {
    const response = await openGame(h(), { data: { type: 'Nope' } }, { sign: 'bad' });
    expect(response.json().errors).toEqual([SIGNATURE_ERROR]);
  });

  it('answers 405 for another method on the open-game path', async () => {
    const response = await h().app.inject({ method: 'GET', url: '/apiweb/v3/open-game?client=demo' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
  });
});

describe.each(DIALECTS)('v3 field errors on %s', (dialect) => {
  const h = useHarness(dialect);

  it('answers 422 field_required "player.id cannot be blank" without a player id', async () => {
    for (const attributes of [{}, { id: '' }, { id: null }]) {
      const response = await openGame(h(), openGameDocument(attributes));
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([
        unprocessable('field_required', 'player.id cannot be blank', player('id')),
      ]);
    }
  });

  it('reports every error of one request together, business rules included', async () => {
    const client = await h().addClient({ id: 'strict', currencyMandatory: true });
    const response = await openGame(
      h(),
      openGameDocument(
        { id: 'u-1', nick: 'n'.repeat(30), email: 'nope', country: 'ZZ' },
        { authType: 'password', tableId: -1 },
      ),
      { client },
    );
    expect(response.statusCode).toBe(422);
    const pointers = response
      .json()
      .errors.map((error: { source: { pointer: string } }) => error.source.pointer);
    expect(pointers.sort()).toEqual(
      [
        session('authType'),
        session('tableId'),
        player('email'),
        player('country'),
        player('nick'),
        player('currency'),
      ].sort(),
    );
  });

  it('refuses a restoreSessionUrl outside the origins the client allows', async () => {
    await h().addClient({ frameOrigins: ['https://op.example'] });
    const outside = await openGame(
      h(),
      openGameDocument({ id: 'u-1' }, { launchOptions: { restoreSessionUrl: 'https://evil.example/r' } }),
    );
    expect(outside.statusCode).toBe(422);
    expect(outside.json().errors[0].source.pointer).toBe(session('launchOptions'));
    const inside = await openGame(
      h(),
      openGameDocument({ id: 'u-1' }, { launchOptions: { restoreSessionUrl: 'https://op.example/r' } }),
    );
    expect(inside.statusCode, inside.body).toBe(201);
  });
});

// Refused before anything is stored: the rows share one app and store per dialect.
describe.each(DIALECTS)('v3 malformed fields, one per request, on %s', (dialect) => {
  const h = useSharedHarness(dialect);

  const tooLargeId =
    'player.id must be a string or an integer from -9007199254740991 to 9007199254740991: ' +
    'a larger integer loses digits when JSON is read, so send it as a string';
  const PLAYER_CASES: [string, unknown, string][] = [
    // JSON reads 9007199254740993 as 2^53, and 12345678901234567890 rounded: neither is the id sent.
    ['id', 2 ** 53, tooLargeId],
    ['id', Number('12345678901234567890'), tooLargeId],
    ['id', -(2 ** 53), tooLargeId],
    ['id', 1.5, 'player.id must be a string or an integer'],
    ['id', 'x'.repeat(65), 'player.id must be at most 64 characters long'],
    ['id', true, 'player.id must be a string or an integer'],
    ['id', '.', 'player.id must not be "." or "..", which URLs read as path steps'],
    ['id', '..', 'player.id must not be "." or "..", which URLs read as path steps'],
    ['nick', 'a\u0007b', 'player.nick must not contain control characters'],
    ['nick', 42, 'player.nick must be a string'],
    ['name', 'n'.repeat(101), 'player.name must be at most 100 characters long'],
    ['email', 'not-an-address', 'player.email must be an e-mail address'],
    ['email', `${'a'.repeat(250)}@b.co`, 'player.email must be an e-mail address'],
    ['referredBy', 'r'.repeat(256), 'player.referredBy must be at most 255 characters long'],
    ['referralCode', 'c'.repeat(65), 'player.referralCode must be at most 64 characters long'],
    ['bonusCode', 'b'.repeat(65), 'player.bonusCode must be at most 64 characters long'],
    ['avatar', -1, 'player.avatar must be between 0 and 2147483647'],
    ['avatar', 1.5, 'player.avatar must be an integer'],
    ...['call me', '+', '(1-2)', '12+34'].map((bad): [string, unknown, string] => [
      'phoneNumber',
      bad,
      'player.phoneNumber must be at least 3 digits with spaces, ( ) . - and an optional leading +',
    ]),
    ['phoneNumber', `+${'1'.repeat(32)}`, 'player.phoneNumber must be at most 32 characters long'],
    ['tag', 't'.repeat(65), 'player.tag must be at most 64 characters long'],
    ['active', 'yes', 'player.active must be true or false'],
    ['verified', 2, 'player.verified must be true or false'],
    ['trustedLevel', 'high', 'player.trustedLevel must be an integer'],
    ['trustedLevel', -3, 'player.trustedLevel must be between 0 and 2147483647'],
    ['currency', 'C'.repeat(33), 'player.currency must be at most 32 characters long'],
    ['currency', ['EUR'], 'player.currency must be a string'],
    ['preferredCurrency', 'XYZ', 'player.preferredCurrency must be an ISO 4217 currency code'],
    ['preferredCurrency', 'EU', 'player.preferredCurrency must be a three-letter ISO 4217 currency code'],
    ['country', 'GBR', 'player.country must be an ISO 3166-1 alpha-2 country code'],
    ['country', 'XX', 'player.country must be an ISO 3166-1 alpha-2 country code'],
    // The likeliest mistake, which the code list reserves: the detail names the code to send instead.
    ['country', 'UK', 'player.country must be an ISO 3166-1 alpha-2 country code (the United Kingdom is GB)'],
    ['country', 'uk', 'player.country must be an ISO 3166-1 alpha-2 country code (the United Kingdom is GB)'],
    ['country', 'EU', 'player.country must be an ISO 3166-1 alpha-2 country code'],
    ['country', 'ZZ', 'player.country must be an ISO 3166-1 alpha-2 country code'],
  ];

  it.each(PLAYER_CASES)('answers 422 for player.%s = %j', async (field, value, detail) => {
    const response = await openGame(h(), openGameDocument({ id: 'u-1', [field]: value }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([unprocessable('invalid_field', detail, player(field))]);
  });

  const SESSION_CASES: [string, unknown, string][] = [
    ['id', 's'.repeat(129), 'session.id must be at most 128 characters long'],
    ['tableId', 0, 'session.tableId must be between 1 and 2147483647'],
    ['tableId', 'seven', 'session.tableId must be an integer'],
    ['tableId', 2 ** 53, 'session.tableId must be between 1 and 2147483647'],
    [
      'lang',
      'english',
      'session.lang must be an ISO 639-1 language code, optionally with a region (en, pt-BR)',
    ],
    ['lang', 'zz', 'session.lang must be an ISO 639-1 language code, optionally with a region (en, pt-BR)'],
    ['launchOptions', '[1]', 'session.launchOptions must be a JSON object'],
    ['launchOptions', 'not json', 'session.launchOptions must be a JSON object'],
    [
      'launchOptions',
      { restoreSessionUrl: 'javascript:alert(1)' },
      'session.launchOptions.restoreSessionUrl must be an absolute http or https URL',
    ],
    ['longLifeLoginToken', 'maybe', 'session.longLifeLoginToken must be true or false'],
    ['userIp', '999.1.1.1', 'session.userIp must be an IPv4 or IPv6 address'],
  ];

  it.each(SESSION_CASES)('answers 422 for session.%s = %j', async (field, value, detail) => {
    const response = await openGame(h(), openGameDocument({ id: 'u-1' }, { [field]: value }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([unprocessable('invalid_field', detail, session(field))]);
  });
});
