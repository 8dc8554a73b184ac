import type { AddressInfo } from 'node:net';
import { sign } from '@poker-launch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../test-support/dialects.js';
import { useHarness } from '../test-support/harness.js';
import { rawExchange } from '../test-support/raw-http.js';
import { TOKEN_API_URL } from '../token/token.routes.js';
import { ROLE_ADMIN } from '../users/api-user.js';
import { createApiUser } from '../users/create-api-user.js';
import { mayHoldCredentialValue, noteRouteLiterals, redactUrl, scrubCredentials } from './logging.js';

const SECRET = 'Not-Hex-Shaped-Secret-42';

describe('logs at trace level, under hostile requests', () => {
  const h = useHarness('sqlite', { LOG_LEVEL: 'trace' });

  /** A real auth token, API key, secret and sign: what must never reach a log line. */
  const credentials = async () => {
    const client = await h().addClient({ secretKey: SECRET });
    const created = await h().createSession('u-1', { nick: 'Logged' }, { client });
    const user = await createApiUser(
      h().db,
      { name: 'ops', role: ROLE_ADMIN, permissions: [], clients: [] },
      h().clock.now(),
    );
    if (!user.ok) throw new Error(user.reason);
    const signature = await sign({ userId: 'u-2' }, SECRET);
    return { token: created.json().data.attributes.auth as string, key: user.key, signature };
  };

  it('writes no token, API key, secret or sign, wherever the request puts them', async () => {
    const { token, key, signature } = await credentials();
    const encoded = [...token].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('');
    const urls = [
      `${TOKEN_API_URL}?auth[]=${token}`,
      `${TOKEN_API_URL}?access-token[]=${token}`,
      `${TOKEN_API_URL}?access-token[a][b]=${token}`,
      `${TOKEN_API_URL}?ACCESS.TOKEN=${token}`,
      `${TOKEN_API_URL}?access%2Dtoken=${token}`,
      `${TOKEN_API_URL};auth=${token}`,
      `/play/poker;jsessionid=1;auth=${token}?lang=en`,
      `/play/poker?auth=${token}&lang=en`,
      `/play/poker?x=${encoded}`,
      `/nothing/${token}`,
      `/nothing/${encoded}`,
      `/api/web/v2/app/users/${token}/session?clientId=demo&sign=${signature}`,
      `/apiweb/v3/open-game?client=demo&client_secret=${SECRET}&key=${key}`,
      `/apiweb/v3/game-sessions/${token}?client=demo&secret=${SECRET}`,
      `/bad%zz/?auth=${token}&password=${SECRET}`,
      `/api/web/v2/app/users/${'u'.repeat(1001)}${token}/session?sign=${signature}`,
      `/?${key}`,
    ];
    for (const url of urls) {
      await h().app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${key}`, sign: signature, 'x-request-id': token },
      });
    }
    await h().app.inject({
      method: 'POST',
      url: '/apiweb/v3/open-game?client=demo',
      headers: { 'content-type': 'application/json', sign: signature, 'x-api-key': key },
      payload: JSON.stringify({
        data: { type: 'OpenGame', attributes: { player: { id: token, nick: SECRET } } },
      }),
    });

    // Requests Node's HTTP parser refuses are logged at trace by Fastify's own handler, raw bytes and all.
    await h().app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h().app.server.address() as AddressInfo;
    const malformed = [
      `GET /play/poker?auth=${token} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Authorization: Bearer ${key}`,
      `sign: ${signature}`,
      `X-Secret: ${SECRET}`,
      'Broken Header',
    ];
    expect((await rawExchange(port, `${malformed.join('\r\n')}\r\n\r\n`))?.status).toBe(400);

    const logs = h().logs();
    for (const credential of [token, key, SECRET, signature, encoded]) expect(logs).not.toContain(credential);
    // Every request was logged, and the redaction is what hid them.
    expect(logs.match(/"msg":"incoming request"/g)?.length).toBe(urls.length + 2);
    expect(logs).toContain('"msg":"client error"');
    expect(logs).toContain(`"url":"${TOKEN_API_URL}?auth[]=[redacted]"`);
    expect(logs).toContain(`"url":"${TOKEN_API_URL};auth=[redacted]"`);
  });
});

describe('redactUrl', () => {
  // The literals of the routes these URLs name, as the app notes them when it adds its routes.
  for (const route of ['/api/web/v2/app/users/:userId/session', '/api/web/v2/app/session', '/play/poker']) {
    noteRouteLiterals(route);
  }

  it('keeps route literals and the values of harmless parameters in their form; replaces every other value', () => {
    expect(redactUrl('/api/web/v2/app/users/u-1/session?clientId=demo&lang=en')).toBe(
      '/api/web/v2/app/users/[redacted]/session?clientId=demo&lang=en',
    );
    expect(redactUrl('/play/poker?auth=x&lang=en&gameCode=poker&page=2')).toBe(
      '/play/poker?auth=[redacted]&lang=en&gameCode=poker&page=2',
    );
    // A game page's reload: its key's name is known, its value (where the tab keeps a token) is not logged.
    expect(redactUrl('/play/poker?lang=en&frame=oBnExHR9FIF2nxI1&client=demo')).toBe(
      '/play/poker?lang=en&frame=[redacted]&client=demo',
    );
    // A harmless name with a value out of its form is no exception.
    expect(redactUrl('/play/poker?lang=Not-A.Language&clientId=a/b&page=x')).toBe(
      '/play/poker?lang=[redacted]&clientId=[redacted]&page=[redacted]',
    );
    expect(redactUrl('/play/poker?lang=&x')).toBe('/play/poker?lang=&[redacted]');
  });

  it('replaces the values of known names and unknown names themselves, under any spelling', () => {
    expect(
      redactUrl('/x;Auth=1/y?Sign=2&access_token=3&pw=4&auth[x][]=5&key=6&launchOptions[a]=7&auth[]=8'),
    ).toBe(
      '/[redacted];[redacted]=[redacted]/[redacted]?[redacted]=[redacted]&[redacted]=[redacted]&[redacted]=[redacted]' +
        '&auth[…]=[redacted]&key=[redacted]&launchOptions[…]=[redacted]&auth[]=[redacted]',
    );
    expect(redactUrl('/play/poker?a[auth]=Secret-1&Secret-2&Secret-3=1&%53ecret-4=%53')).toBe(
      '/play/poker?[redacted]=[redacted]&[redacted]&[redacted]=[redacted]&[redacted]=[redacted]',
    );
  });

  it('shows a path segment only when it is a route literal, percent-encoded or not', () => {
    expect(redactUrl('/play/%70oker/Secret-1;jsessionid=2/%53ecret')).toBe(
      '/play/%70oker/[redacted];[redacted]=[redacted]/[redacted]',
    );
    expect(redactUrl('/api/web/v2/app/session;auth=x')).toBe('/api/web/v2/app/session;auth=[redacted]');
    expect(redactUrl('/bad%zz/')).toBe('/[redacted]/');
  });
});

describe('scrubCredentials', () => {
  it('replaces every maximal run of 32 or more hex characters and every API key, and nothing else', () => {
    const token = '0123456789abcdefABCDEF0123456789';
    expect(scrubCredentials(`{"a":"${token}","b":"${token}ff","c":"x${token.slice(1)}"}`)).toBe(
      `{"a":"[redacted]","b":"[redacted]","c":"x${token.slice(1)}"}`,
    );
    expect(scrubCredentials(`key plk_${'Az09_-'.repeat(8)} end`)).toBe('key [redacted] end');
    const plain = '{"reqId":"5f0e3c1a-7b2d-4c9e-8f1a-2b3c4d5e6f70","time":1763865600000}';
    expect(scrubCredentials(plain)).toBe(plain);
  });
});

describe('the check that lets a log line skip the scrubbing', () => {
  const SHAPED = /plk_|[0-9A-Fa-f]{32}/;

  it('says a line may hold a credential whenever one is there, wherever the hex runs start and end', () => {
    // Lines of hex runs of every length around 32, cut by other characters, as log lines are.
    const piece = fc.oneof(
      fc.integer({ min: 0, max: 40 }).map((length) => '0a1B2c3D4e5F6789'.repeat(3).slice(0, length)),
      fc.constantFrom('"', ':', ',', '-', 'x', 'g', 'plk_', '{"reqId":"', ' ', 'é'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const line = pieces.join('');
        expect(mayHoldCredentialValue(line)).toBe(SHAPED.test(line));
      }),
      { seed: 42, numRuns: 5000 },
    );
  });
});

describe.runIf(TEST_POSTGRES_URL)('a PostgreSQL error in a log line', () => {
  const h = useHarness('postgres');

  it('keeps its message, code and constraint, not the row values of its detail, also as a cause', async () => {
    await h().addClient({ id: 'casino-1' });
    const error = await h()
      .db.insertInto('clients')
      .values({
        ...(await h()
          .db.selectFrom('clients')
          .selectAll()
          .where('id', '=', 'casino-1')
          .executeTakeFirstOrThrow()),
      })
      .execute()
      .then(
        () => undefined,
        (refused: unknown) => refused,
      );
    expect(error).toMatchObject({ code: '23505', detail: expect.stringContaining('(casino-1)') });
    h().app.log.error({ err: error }, 'a failure');
    h().app.log.error({ err: new Error('wrapped', { cause: error }) }, 'a wrapped failure');
    const lines = h()
      .logs()
      .split('\n')
      .filter((line) => line.includes('failure'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('"code":"23505"');
    expect(lines[0]).toContain('"constraint":"clients_pkey"');
    expect(lines[0]).toContain('"detail":"[redacted]"');
    // A cause is written into the message and stack, which hold no detail.
    expect(lines[1]).toContain('wrapped: duplicate key value violates unique constraint');
    for (const line of lines) expect(line).not.toContain('(casino-1)');
  });
});
