import fc from 'fast-check';

/** Text as a URL carries it; a lone surrogate (which UTF-8 cannot carry) becomes U+FFFD. */
export const encode = (text: string): string =>
  encodeURIComponent(
    text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
  );

/** Text an attacker (or a buggy integrator) sends: control characters, invisible ones, huge, look-alikes. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u0007',
    '\u200B',
    '\u202Eevil',
    '\uFEFF',
    '\uD800',
    'a'.repeat(65),
    'x'.repeat(300),
    '../../etc/passwd',
    '%00',
    '%zz',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '"; DROP TABLE sessions; --',
    '__proto__',
    'constructor',
    'toString',
    'EUR',
    'eur',
    'XYZ',
    'poker',
    'casino',
    'internal',
    'external',
    'true',
    '1',
    '-1',
    '0',
    '2147483648',
    '9007199254740993',
    '1e3',
    'NaN',
    'https://casino.example/r',
    'https://evil.example/r',
    'javascript:alert(1)',
    'Zoë',
    'Taken',
    'TAKEN',
  ),
);

/** Any JSON a body may carry in a field's place: wrong types, nesting, prototype keys. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom({ toString: 1 }, { valueOf: 'x' }, ['u-1'], [[[[]]]], {
    restoreSessionUrl: 'javascript:x',
  }),
);

/** `arbitrary` once in `n` cases, else undefined (`n` may be a fraction: 1.5 is two cases in three). */
export const sometimes = <T>(arbitrary: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: Math.round((n - 1) * 2), arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary });

/** A field: absent half of the time, else a valid value (most of the time) or a hostile one. */
const field = <T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<unknown> = hostileJson) =>
  sometimes(fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: hostile }), 2);

const userIds = fc.oneof(
  fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  fc.constantFrom('u-1', 'u-2', 'Taken-owner'),
);
const nicks = fc.oneof(
  fc.stringMatching(/^[A-Z][a-z]{2,10}[0-9]{0,3}$/),
  fc.constantFrom('Taken', 'Ann', 'Zoë'),
);
const launchOptions = fc.oneof(
  fc.constant({ restoreSessionUrl: 'https://casino.example/restore' }),
  fc.constant('{"restoreSessionUrl":"https://casino.example/r"}'),
  fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
    maxKeys: 3,
  }),
);

/** Strips the undefined members fast-check leaves for absent optional fields. */
const defined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

/** Extra parameters nobody documented: signed like the rest, never stored. */
const extras = fc.dictionary(fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), hostileText), hostileJson, {
  maxKeys: 2,
});

/** The v2 body parameters: every documented field, valid or hostile, and extras. */
export const v2Params = fc
  .tuple(
    fc.record({
      // 'same': the path's userId, repeated in the body as the spec allows.
      userId: field(
        fc.oneof({ weight: 5, arbitrary: fc.constant('same') }, { weight: 1, arbitrary: userIds }),
      ),
      userIp: field(fc.constantFrom('203.0.113.5', '::1', '10.0.0.1')),
      sessionId: field(fc.stringMatching(/^[a-z0-9-]{1,20}$/)),
      nick: field(nicks),
      authType: field(fc.constantFrom('internal', 'external')),
      lang: field(fc.constantFrom('en', 'de', 'pt-BR', 'es_MX')),
      launchOptions: field(launchOptions),
      currency: field(fc.constantFrom('EUR', 'eur', 'USD')),
      gameCode: field(fc.constantFrom('poker', 'casinoLobby', 'casinolobby', 'casino', 'sport')),
      tableId: field(fc.oneof(fc.integer({ min: 1, max: 2_147_483_647 }), fc.constant('7'))),
      gameId: field(fc.stringMatching(/^[a-z]{1,10}$/)),
      longLifeLoginToken: field(fc.constantFrom(true, false, 'true', '0', '1')),
    }),
    extras,
  )
  .map(([known, extra]) => ({ ...extra, ...defined(known) }));

/** `data.attributes` of an OpenGame document: session and player, valid or hostile field by field. */
export const v3Attributes = fc
  .tuple(
    sometimes(
      fc.record({
        id: field(fc.stringMatching(/^[a-z0-9-]{1,20}$/)),
        authType: field(fc.constantFrom('internal', 'external')),
        tableId: field(fc.integer({ min: 1, max: 99 })),
        lang: field(fc.constantFrom('en', 'fr', 'pt-BR')),
        launchOptions: field(launchOptions),
        longLifeLoginToken: field(fc.boolean()),
        userIp: field(fc.constantFrom('198.51.100.1', '2001:db8::1')),
      }),
      1.5,
    ),
    fc.record({
      id: field(userIds),
      nick: field(nicks),
      name: field(fc.constantFrom('Ann Lee', 'Zoë')),
      email: field(fc.constantFrom('ann@example.com', 'zoe@casino.example')),
      referredBy: field(fc.constant('friend')),
      referralCode: field(fc.constant('REF1')),
      bonusCode: field(fc.constant('BONUS')),
      avatar: field(fc.integer({ min: 0, max: 50 })),
      phoneNumber: field(fc.constantFrom('+44 20 7946 0000', '555-0100')),
      tag: field(fc.constant('vip')),
      active: field(fc.boolean()),
      verified: field(fc.boolean()),
      trustedLevel: field(fc.integer({ min: 0, max: 5 })),
      currency: field(fc.constantFrom('EUR', 'usd')),
      preferredCurrency: field(fc.constantFrom('EUR', 'JPY')),
      country: field(fc.constantFrom('GB', 'de', 'XK')),
    }),
    extras,
  )
  .map(([session, player, extra]) => ({
    ...extra,
    ...(session === undefined ? {} : { session: defined(session) }),
    player: defined(player),
  }));

/** An OpenGame document, most of the time; else any JSON, or the document with its shape broken. */
export const v3Body: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: v3Attributes.map((attributes) => ({ data: { type: 'OpenGame', attributes } })) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  {
    weight: 1,
    arbitrary: fc.record({
      data: fc.record({ type: fc.oneof(fc.constant('OpenGame'), hostileJson), attributes: hostileJson }),
    }),
  },
);

/** How a request proves who it is. */
export const signing = fc.oneof(
  { weight: 6, arbitrary: fc.constant('valid') },
  { weight: 1, arbitrary: fc.constantFrom('valid-upper', 'wrong', 'none', 'other-client', 'garbage') },
);
export const apiKeyChoice = fc.constantFrom(
  'none',
  'none',
  'none',
  'admin',
  'powerless',
  'unknown',
  'malformed',
);

/** The client a request names: mostly a usable one, sometimes unusable or impossible. */
export const clientChoice: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('demo', 'open', 'internal', 'strict') },
  { weight: 1, arbitrary: fc.constantFrom('gone', 'nobody', undefined) },
  { weight: 1, arbitrary: hostileText },
);

export const contentTypes = fc.constantFrom(
  'application/x-www-form-urlencoded',
  'application/json',
  'application/vnd.api+json',
  'application/vnd.api+json; version=1',
  'application/json; charset=utf-8',
  'text/plain',
  'multipart/form-data; boundary=x',
  undefined,
);
export const accepts = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(undefined, 'application/vnd.api+json', '*/*') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '*/*',
      'application/vnd.api+json',
      'application/vnd.api+json; foo=bar',
      'text/html',
      'application/json;q=0',
      'text/html, application/json;q=0.5',
    ),
  },
);
export const requestIds = fc.oneof(
  fc.constant(undefined),
  fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/),
  hostileText,
);
/** Where a request comes from: public addresses (counted per address) and proxies' (never). */
export const remoteAddresses = fc.constantFrom(
  '203.0.113.7',
  '198.51.100.23',
  '127.0.0.1',
  '10.0.0.2',
  '2001:db8::7',
);

/** A path segment as a client might put it: encoded, raw, with a bad escape, or over the length limit. */
export const pathSegment = (valid: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 6, arbitrary: valid.map(encode) },
    { weight: 2, arbitrary: hostileText.map(encode) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%E0%A4%A', 'a;auth=x', '..', '%2F', 'u'.repeat(1001)) },
  );

/** Query parameters beyond the ones a route reads, in PHP's bracket forms too. */
export const extraQuery = fc.oneof(
  { weight: 3, arbitrary: fc.constant([] as [string, string][]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.tuple(
        fc.constantFrom(
          'a',
          'auth',
          'auth[]',
          'access-token[]',
          'sign',
          'lang',
          'x[y][z]',
          '%zz',
          'page',
          'sort',
        ),
        hostileText,
      ),
      { minLength: 1, maxLength: 2 },
    ),
  },
);

/** `client`, the replay fields and others a player route does not take, twice or in bracket forms too. */
export const controlQuery = fc.oneof(
  { weight: 5, arbitrary: fc.constant([] as [string, string][]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.tuple(
        fc.constantFrom('client', 'client[]', 'ts', 'nonce', 'playerId', 'id', 'userId', 'lang', 'x[y]'),
        fc.oneof(fc.constantFrom('demo', 'strict', 'open', '1700000000'), hostileText),
      ),
      { minLength: 1, maxLength: 2 },
    ),
  },
);

const untils = fc.oneof(
  fc.constantFrom(
    '2099-01-01T00:00:00Z',
    '2099-12-31T23:59:59.123+01:00',
    '2100-02-28T24:00:00Z',
    '9999-12-31T23:00:00+05:00',
  ),
  fc.constant(null),
);

/** A PlayerBlock document: valid (and whether it is), or broken in one place. */
export const blockBody: fc.Arbitrary<{ document: unknown; valid: boolean }> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        until: sometimes(untils, 1.5),
        reason: sometimes(
          fc.oneof(
            fc.string({ maxLength: 200 }).filter((text) => text === '' || text.trim() !== ''),
            fc.constant('self-exclusion'),
          ),
          1.5,
        ),
      })
      .map((attributes) => ({
        document: { data: { type: 'PlayerBlock', attributes: defined(attributes) } },
        valid: true,
      })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        until: sometimes(
          fc.oneof(
            fc.constantFrom(
              '2000-01-01T00:00:00Z',
              '2099-02-30T00:00:00Z',
              '2099-01-01',
              '2099-01-01T00:00:00',
              '+275760-09-13T00:00:00Z',
              '9999-12-31T23:59:59.999999999-23:59',
              '9999-12-31T23:00:00-05:00',
              '2099-13-01T00:00:00Z',
              '2099-01-01T25:00:00Z',
              '2099-01-01T00:60:00Z',
              '2099-01-01T00:00:00+99:99',
              'tomorrow',
            ),
            hostileJson,
          ),
          1.5,
        ),
        reason: sometimes(fc.oneof(fc.constant('x'.repeat(201)), hostileJson), 1.5),
        untill: sometimes(fc.constant('2099-01-01T00:00:00Z'), 3),
      })
      .map((attributes) => ({
        document: { data: { type: 'PlayerBlock', attributes: defined(attributes) } },
        valid: false,
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({ data: fc.record({ type: hostileJson, attributes: hostileJson }) }),
        fc.record({ data: hostileJson }),
      )
      .map((document) => ({ document, valid: false })),
  },
);
