import { describe, expect, it } from 'vitest';
import type { Client } from '../../clients/client.js';
import { useHarness } from '../../test-support/harness.js';
import { DIALECTS } from '../../test-support/test-database.js';

interface ErrorItem {
  status: number;
  code: string;
  title: string;
  detail: string;
  source?: { pointer: string };
}

const errorsOf = (body: string): ErrorItem[] => JSON.parse(body).errors;

const TITLES: Record<number, string> = {
  404: 'Not Found',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};
const CURRENCY_MANDATORY = { currencyMandatory: true };

/** The spec's refusals of one field: each request of a row is answered with exactly that one error. */
const SPEC_REFUSALS: {
  when: string;
  client?: Partial<Client>;
  currencies?: string[];
  requests: Record<string, unknown>[];
  status: number;
  code: string;
  detail: string;
  pointer: string;
  meta?: Record<string, unknown>;
}[] = [
  {
    when: 'an unknown player in internal player-id mode',
    client: { playerIdMode: 'internal' },
    requests: [{}],
    status: 404,
    code: 'player_not_found',
    detail: 'Player not found',
    pointer: '/data/attributes/userId',
  },
  {
    when: 'an authType other than internal or external',
    requests: ['session', 'token', 'credentials', 'EXTERNAL'].map((authType) => ({ authType })),
    status: 422,
    code: 'auth_type_not_valid',
    detail: 'Auth type not valid',
    pointer: '/data/attributes/authType',
    meta: { allowedValues: ['internal', 'external'] },
  },
  {
    when: 'an unknown gameCode, listing the valid codes in meta',
    requests: [{ gameCode: 'bingo' }],
    status: 422,
    code: 'game_code_not_valid',
    detail: 'Game code not valid',
    pointer: '/data/attributes/gameCode',
    meta: { allowedValues: ['poker', 'casinoLobby', 'casinolobby', 'casino', 'sport'] },
  },
  {
    when: 'no currency where the client makes it mandatory',
    client: CURRENCY_MANDATORY,
    requests: [{}],
    status: 422,
    code: 'currency_blank',
    detail: 'Currency cannot be blank',
    pointer: '/data/attributes/currency',
  },
  {
    when: 'a mandatory currency that is not an ISO 4217 code',
    client: CURRENCY_MANDATORY,
    currencies: ['EUR'],
    requests: ['XYZ', 'EURO', 'EU', 'euro', 'not a currency'].map((currency) => ({ currency })),
    status: 422,
    code: 'currency_not_found',
    detail: 'Currency not found',
    pointer: '/data/attributes/currency',
  },
  {
    when: 'a mandatory currency the operator has not activated',
    client: CURRENCY_MANDATORY,
    currencies: ['EUR'],
    requests: [{ currency: 'USD' }],
    status: 422,
    code: 'currency_not_active',
    detail: 'This currency is not active',
    pointer: '/data/attributes/currency',
  },
  {
    when: 'a nick longer than any NickMaxLength (255)',
    requests: [{ nick: 'x'.repeat(256) }, { nick: 'x'.repeat(10_000) }],
    status: 500,
    code: 'username_too_long',
    detail: 'The maximum username length is 20',
    pointer: '/data/attributes/nick',
  },
];

describe.each(DIALECTS)('v2 errors of the spec on %s', (dialect) => {
  const h = useHarness(dialect);

  describe('400 Not valid request signature', () => {
    const expected400 = {
      status: 400,
      code: 'invalid_signature',
      title: 'Bad Request',
      detail: 'Not valid request signature',
    };

    it('answers a missing, a wrong, an unknown-client and a disabled-client request alike', async () => {
      await h().addClient({ id: 'demo' });
      const disabled = await h().addClient({ id: 'gone', active: false });
      const responses = [
        await h().createSession('u-1', { nick: 'A' }, { sign: null }),
        await h().createSession('u-1', { nick: 'A' }, { sign: 'f'.repeat(64) }),
        await h().createSession('u-1', { nick: 'A' }, { clientId: 'nobody' }),
        await h().createSession('u-1', { nick: 'A' }, { client: disabled }),
      ];
      const tester = `${h().config.publicUrl}/tools/signature`;
      for (const [index, response] of responses.entries()) {
        expect(response.statusCode).toBe(400);
        const body = response.json();
        expect(body.errors).toEqual([expected400]);
        // Only the missing sign header is said; an unknown or disabled client reads like a wrong sign.
        const hints = index === 0 ? [expect.objectContaining({ code: 'sign_header_missing' })] : [];
        expect(body.meta.signature).toEqual({ canonical: 'Au-1', hints, tester });
      }
      expect(await h().db.selectFrom('players').selectAll().execute()).toEqual([]);
    });

    it('accepts the sign in upper case hex', async () => {
      await h().addClient({ id: 'demo', secretKey: 'test_secret' });
      const response = await h().createSession(
        '12345',
        { nick: 'Player1', lang: 'en', authType: 'external' },
        { sign: '5659E1D6D9F9F54A432E978EACF6EC98CAC7BCB8914DDA49DDCE81076EF1F84A' },
      );
      expect(response.statusCode).toBe(200);
    });

    it('refuses a sign made for other values', async () => {
      await h().addClient({ id: 'demo', secretKey: 'test_secret' });
      const response = await h().createSession(
        '12345',
        { nick: 'Player2', lang: 'en', authType: 'external' },
        { sign: '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a' },
      );
      expect(response.statusCode).toBe(400);
    });
  });

  describe('in production', () => {
    const p = useHarness(dialect, { POKER_LAUNCH_ENV: 'production' });

    it('never explains the signature', async () => {
      const response = await p().createSession('u-1', {}, { sign: 'bad' });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().meta)).toEqual(['requestId']);
    });
  });

  it.each(SPEC_REFUSALS.map((row) => [`${row.status} ${row.code} for ${row.when}`, row] as const))(
    'answers %s',
    async (_title, { status, code, client, currencies, requests, detail, pointer, meta }) => {
      if (client) await h().addClient(client);
      if (currencies) await h().activateCurrencies(...currencies);
      for (const params of requests) {
        const response = await h().createSession('u-1', params);
        expect(response.statusCode, JSON.stringify(params)).toBe(status);
        expect(errorsOf(response.body), JSON.stringify(params)).toEqual([
          { status, code, title: TITLES[status], detail, source: { pointer }, ...(meta ? { meta } : {}) },
        ]);
      }
      expect(await h().db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    },
  );

  describe('currency, mandatory for the client', () => {
    it('takes a known, active currency in any case, and stores it in upper case', async () => {
      await h().addClient({ currencyMandatory: true });
      await h().activateCurrencies('EUR');
      const ok = await h().createSession('u-1', { currency: 'eur' });
      expect(ok.statusCode).toBe(200);
      expect(await h().db.selectFrom('players').select('currency').executeTakeFirst()).toEqual({
        currency: 'EUR',
      });
    });

    it('answers only invalid_field, not also "Currency cannot be blank", for a currency over 32 characters or not text', async () => {
      await h().addClient({ currencyMandatory: true });
      const tooLong = await h().createSession('u-1', { currency: 'C'.repeat(33) });
      expect(tooLong.statusCode).toBe(422);
      expect(errorsOf(tooLong.body)).toEqual([
        expect.objectContaining({
          code: 'invalid_field',
          detail: 'currency must be at most 32 characters long',
          source: { pointer: '/data/attributes/currency' },
        }),
      ]);
      const list = await h().createSession('u-1', { currency: ['EUR'] }, { format: 'json' });
      expect(errorsOf(list.body)).toEqual([
        expect.objectContaining({ code: 'invalid_field', detail: 'currency must be a string' }),
      ]);
    });

    it('applies no unusable currency when it is optional, and says why in meta.warnings', async () => {
      const unknown = await h().createSession('u-1', { currency: 'XYZ' });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json().meta).toEqual({
        warnings: ['Currency XYZ is not an ISO 4217 code; it was not applied'],
      });
      for (const currency of ['EURO', 'eu']) {
        const malformed = await h().createSession('u-1', { currency });
        expect(malformed.statusCode).toBe(200);
        expect(malformed.json().meta).toEqual({
          warnings: [`Currency ${currency.toUpperCase()} is not an ISO 4217 code; it was not applied`],
        });
      }
      expect(await h().db.selectFrom('players').select('currency').executeTakeFirst()).toEqual({
        currency: null,
      });
    });
  });

  describe('nicknames', () => {
    it('answers 500 "A Player with this username already exists in the system." for a nick another player holds', async () => {
      expect((await h().createSession('u-1', { nick: 'Zoë' })).statusCode).toBe(200);
      for (const nick of ['Zoë', 'ZOË', 'zoe\u0308', 'Zo\u200Bë']) {
        const response = await h().createSession('u-2', { nick });
        expect(response.statusCode, nick).toBe(500);
        expect(errorsOf(response.body)).toEqual([
          {
            status: 500,
            code: 'username_exists',
            title: 'Internal Server Error',
            detail: 'A Player with this username already exists in the system.',
            source: { pointer: '/data/attributes/nick' },
          },
        ]);
      }
      expect((await h().createSession('u-1', { nick: 'ZOË' })).statusCode).toBe(200);
    });

    it('answers 500 "The maximum username length is N" with the configured N', async () => {
      const tooLong = await h().createSession('u-1', { nick: 'x'.repeat(21) });
      expect(tooLong.statusCode).toBe(500);
      expect(errorsOf(tooLong.body)[0]).toMatchObject({
        code: 'username_too_long',
        detail: 'The maximum username length is 20',
      });
      expect((await h().createSession('u-1', { nick: '😀'.repeat(20) })).statusCode).toBe(200);
      await h().setSetting('NickMaxLength', '5');
      const response = await h().createSession('u-2', { nick: 'Sixsix' });
      expect(errorsOf(response.body)[0]?.detail).toBe('The maximum username length is 5');
    });

    it('lets exactly one of many concurrent requests take a nick', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, index) => h().createSession(`racer-${index}`, { nick: 'Winner' })),
      );
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([200, 500, 500, 500, 500, 500, 500, 500]);
      const holders = await h()
        .db.selectFrom('players')
        .select('external_id')
        .where('nick', '=', 'Winner')
        .execute();
      expect(holders).toHaveLength(1);
    });

    it('registers one player when the first requests for a user arrive together', async () => {
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => h().createSession('same-user', {})),
      );
      expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await h().db.selectFrom('players').selectAll().execute()).toHaveLength(1);
      expect(await h().db.selectFrom('sessions').selectAll().execute()).toHaveLength(6);
    });
  });
});

describe.each(DIALECTS)('v2 malformed fields on %s', (dialect) => {
  const h = useHarness(dialect);

  const fieldErrors = async (params: Record<string, unknown>, format: 'form' | 'json' = 'form') => {
    const response = await h().createSession('u-1', params, { format });
    expect(response.statusCode, response.body).toBe(422);
    return errorsOf(response.body).map((error) => [
      error.source?.pointer.replace('/data/attributes/', ''),
      error.detail,
    ]);
  };

  it('reports every malformed field of one request together, each with its pointer', async () => {
    expect(
      await fieldErrors({
        userIp: '999.1.1.1',
        lang: 'english',
        tableId: 'abc',
        gameCode: 'poker2',
        longLifeLoginToken: 'yes',
        nick: 'bad\u0007nick',
      }),
    ).toEqual([
      ['userIp', 'userIp must be an IPv4 or IPv6 address'],
      ['nick', 'nick must not contain control characters'],
      ['lang', 'lang must be an ISO 639-1 language code, optionally with a region (en, pt-BR)'],
      ['gameCode', 'Game code not valid'],
      ['tableId', 'tableId must be an integer'],
      ['longLifeLoginToken', 'longLifeLoginToken must be true or false'],
    ]);
  });

  it('refuses values of the wrong JSON type', async () => {
    expect(
      await fieldErrors({ nick: 42, tableId: 1.5, longLifeLoginToken: 'maybe', gameId: { a: 1 } }, 'json'),
    ).toEqual([
      ['nick', 'nick must be a string'],
      ['tableId', 'tableId must be an integer'],
      ['gameId', 'gameId must be a string or an integer'],
      ['longLifeLoginToken', 'longLifeLoginToken must be true or false'],
    ]);
  });

  it('refuses ids sent as JSON integers past 2^53 - 1, which JSON reads rounded, saying to send them as text', async () => {
    const tooLarge = (name: string) =>
      `${name} must be a string or an integer from -9007199254740991 to 9007199254740991: ` +
      'a larger integer loses digits when JSON is read, so send it as a string';
    const past = 2 ** 53; // 9007199254740993 reads as this
    const twentyDigits = Number('12345678901234567890');
    expect(await fieldErrors({ sessionId: past, gameCode: 'sport', gameId: -twentyDigits }, 'json')).toEqual([
      ['sessionId', tooLarge('sessionId')],
      ['gameId', tooLarge('gameId')],
    ]);
    // A body userId is compared with the path's before the signature: read rounded, it named another id.
    const response = await h().createSession('9007199254740993', { userId: past }, { format: 'json' });
    expect(errorsOf(response.body).map((error) => [error.source?.pointer, error.detail])).toEqual([
      ['/data/attributes/userId', tooLarge('userId')],
    ]);
    // The largest safe integer is taken, as its decimal text.
    const safe = await h().createSession(
      '9007199254740991',
      { userId: 9007199254740991 },
      { format: 'json' },
    );
    expect(safe.statusCode, safe.body).toBe(200);
  });

  it('answers a tableId past the safe integers with its range, not "must be an integer"', async () => {
    expect(await fieldErrors({ tableId: 2 ** 53 }, 'json')).toEqual([
      ['tableId', 'tableId must be between 1 and 2147483647'],
    ]);
    expect(await fieldErrors({ tableId: '12345678901234567890' })).toEqual([
      ['tableId', 'tableId must be between 1 and 2147483647'],
    ]);
  });

  it('limits the length of userId (64), sessionId (128) and gameId (64)', async () => {
    const response = await h().createSession('u'.repeat(65), { sessionId: 's'.repeat(129) });
    expect(errorsOf(response.body).map((error) => error.detail)).toEqual([
      'userId must be at most 64 characters long',
      'sessionId must be at most 128 characters long',
    ]);
    expect(await fieldErrors({ gameCode: 'casino', gameId: 'g'.repeat(65), currency: 'EUR' })).toContainEqual(
      ['gameId', 'gameId must be at most 64 characters long'],
    );
    expect((await h().createSession('u'.repeat(64), { sessionId: 's'.repeat(128) })).statusCode).toBe(200);
  });

  it('refuses a tableId that is not a positive integer, and two different tableId values', async () => {
    expect(await fieldErrors({ tableId: '0' })).toEqual([
      ['tableId', 'tableId must be between 1 and 2147483647'],
    ]);
    expect(await fieldErrors({ tableId: '7', tableID: '8' })).toEqual([
      ['tableID', 'tableId and tableID have different values'],
    ]);
    expect(await fieldErrors({ gameCode: 'sport', gameId: 'a', gameID: 'b' })).toEqual([
      ['gameID', 'gameId and gameID have different values'],
    ]);
  });

  it('refuses launchOptions that are not a JSON object, too large, or with an unsafe restoreSessionUrl', async () => {
    expect(await fieldErrors({ launchOptions: '[1,2]' })).toEqual([
      ['launchOptions', 'launchOptions must be a JSON object'],
    ]);
    expect(await fieldErrors({ launchOptions: 'nope' })).toEqual([
      ['launchOptions', 'launchOptions must be a JSON object'],
    ]);
    expect(await fieldErrors({ launchOptions: { big: 'x'.repeat(4100) } })).toEqual([
      ['launchOptions', 'launchOptions must be at most 4096 bytes of JSON'],
    ]);
    for (const restoreSessionUrl of [
      'javascript:alert(1)',
      '/relative',
      'ftp://files.example/x',
      'data:text/html,hi',
    ]) {
      expect(await fieldErrors({ launchOptions: { restoreSessionUrl } })).toEqual([
        ['launchOptions', 'launchOptions.restoreSessionUrl must be an absolute http or https URL'],
      ]);
    }
  });

  it('refuses a restoreSessionUrl outside the origins the client allows', async () => {
    await h().addClient({ frameOrigins: ['https://casino.example'] });
    for (const [restoreSessionUrl, origin] of [
      ['https://evil.example/r', 'https://evil.example'],
      ['http://casino.example/r', 'http://casino.example'],
      ['https://casino.example:8443/r', 'https://casino.example:8443'],
    ]) {
      expect(await fieldErrors({ launchOptions: { restoreSessionUrl } })).toEqual([
        [
          'launchOptions',
          `launchOptions.restoreSessionUrl must be on an origin the client allows (one of its frame origins); ${origin} is not one`,
        ],
      ]);
    }
    // Compared as origins: the host's case and the default port make no difference.
    for (const restoreSessionUrl of ['https://casino.example/r', 'https://Casino.example:443/r']) {
      const allowed = await h().createSession('u-1', { launchOptions: { restoreSessionUrl } });
      expect(allowed.statusCode, restoreSessionUrl).toBe(200);
    }
  });

  it('needs gameId and currency for a casino game, and takes tableId only for poker', async () => {
    expect(await fieldErrors({ gameCode: 'casino' })).toEqual([
      ['gameId', 'gameId cannot be blank for gameCode casino'],
      ['currency', 'Currency cannot be blank'],
    ]);
    expect(
      await fieldErrors({ gameCode: 'casino', gameId: 'roulette', tableId: '3', currency: 'EUR' }),
    ).toContainEqual(['tableId', 'tableId applies only to gameCode poker']);
    expect(await fieldErrors({ gameCode: 'casinoLobby', gameId: 'x' })).toEqual([
      ['gameId', 'gameId applies only to gameCode casino or sport'],
    ]);
  });

  it('takes an empty body userId as not sent, like every other empty value', async () => {
    const response = await h().createSession('u-1', { userId: '' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.attributes['user-id']).toBe('u-1');
  });

  it('answers 422 before checking the signature when the body userId differs from the path', async () => {
    const response = await h().createSession('u-1', { userId: 'u-2' }, { sign: 'bad' });
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response.body)).toEqual([
      {
        status: 422,
        code: 'user_id_mismatch',
        title: 'Unprocessable Entity',
        detail: 'userId in the body does not match userId in the path',
        source: { pointer: '/data/attributes/userId' },
      },
    ]);
  });

  it('answers 422 overall when a field error and a username error come together, each item keeping its status', async () => {
    const response = await h().createSession('u-1', { nick: 'n'.repeat(30), authType: 'nope' });
    expect(response.statusCode).toBe(422);
    expect(errorsOf(response.body).map((error) => [error.code, error.status])).toEqual([
      ['auth_type_not_valid', 422],
      ['username_too_long', 500],
    ]);
  });
});
